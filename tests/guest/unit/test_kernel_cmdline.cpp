// Boot-time settings from the kernel command line, and the static IPv4
// settings they (or the turn spec) carry.

#include "ipv4_interface.h"
#include "kernel_cmdline.h"

#include <gtest/gtest.h>

using namespace arizuko::guest;

TEST(KernelCmdline, SplitsParametersAndValues)
{
    const auto parameters = parseKernelCmdline(
        "console=ttyS0 panic=-1 quiet arizuko.ip=10.213.0.2/30  arizuko.gw=10.213.0.1\n");
    EXPECT_EQ(parameters.at("console"), "ttyS0");
    EXPECT_EQ(parameters.at("panic"), "-1");
    EXPECT_EQ(parameters.at("quiet"), "");
    EXPECT_EQ(parameters.at("arizuko.ip"), "10.213.0.2/30");
    EXPECT_EQ(parameters.at("arizuko.gw"), "10.213.0.1");
    EXPECT_EQ(parameters.size(), 5u);
}

TEST(KernelCmdline, QuotesKeepSpacesAndAreRemoved)
{
    const auto parameters = parseKernelCmdline(R"(a="one two" "b=three four" c=x=y)");
    EXPECT_EQ(parameters.at("a"), "one two");
    EXPECT_EQ(parameters.at("b"), "three four");
    EXPECT_EQ(parameters.at("c"), "x=y");
}

TEST(KernelCmdline, LaterRepetitionWinsAndEmptyInputIsEmpty)
{
    EXPECT_EQ(parseKernelCmdline("x=1 x=2").at("x"), "2");
    EXPECT_TRUE(parseKernelCmdline("").empty());
    EXPECT_TRUE(parseKernelCmdline(" \t\n").empty());
}

TEST(Ipv4Interface, ParsesAddressPrefixAndGateway)
{
    const Ipv4Interface settings = parseIpv4Interface("10.213.0.2/30", "10.213.0.1");
    EXPECT_EQ(settings.address, 0x0AD50002u);
    EXPECT_EQ(settings.prefixLength, 30);
    EXPECT_EQ(settings.netmask(), 0xFFFFFFFCu);
    EXPECT_EQ(settings.gateway, 0x0AD50001u);
    EXPECT_EQ(formatIpv4(settings.address), "10.213.0.2");
}

TEST(Ipv4Interface, WiderPrefixes)
{
    EXPECT_EQ(parseIpv4Interface("192.168.7.10/24", "192.168.7.1").netmask(), 0xFFFFFF00u);
    EXPECT_EQ(parseIpv4Interface("10.1.2.3/8", "10.200.0.1").netmask(), 0xFF000000u);
}

class Ipv4InterfaceRejects
    : public testing::TestWithParam<std::tuple<std::string, std::string, std::string>>
{
};

TEST_P(Ipv4InterfaceRejects, WithAReason)
{
    const auto &[address, gateway, reason] = GetParam();
    try {
        parseIpv4Interface(address, gateway);
        ADD_FAILURE() << address << " via " << gateway << " was accepted";
    } catch (const AddressError &error) {
        EXPECT_NE(std::string(error.what()).find(reason), std::string::npos) << error.what();
    }
}

INSTANTIATE_TEST_SUITE_P(
    BadSettings, Ipv4InterfaceRejects,
    testing::Values(std::make_tuple("10.213.0.2", "10.213.0.1", "needs a prefix length"),
                    std::make_tuple("10.213.0.2/", "10.213.0.1", "is not 1 to 30"),
                    std::make_tuple("10.213.0.2/31", "10.213.0.1", "is not 1 to 30"),
                    std::make_tuple("10.213.0.2/0", "10.213.0.1", "is not 1 to 30"),
                    std::make_tuple("10.213.0.2/3x", "10.213.0.1", "is not 1 to 30"),
                    std::make_tuple("10.213.0.256/30", "10.213.0.1", "is not an IPv4 address"),
                    std::make_tuple("fd00::2/30", "10.213.0.1", "is not an IPv4 address"),
                    std::make_tuple("10.213.0.2/30", "gateway", "is not an IPv4 address"),
                    std::make_tuple("10.213.0.2/30", "", "is not an IPv4 address"),
                    std::make_tuple("10.213.0.0/30", "10.213.0.1", "network or broadcast"),
                    std::make_tuple("10.213.0.3/30", "10.213.0.1", "network or broadcast"),
                    std::make_tuple("10.213.0.2/30", "10.213.0.2", "not another host"),
                    std::make_tuple("10.213.0.2/30", "10.213.0.3", "not another host"),
                    std::make_tuple("10.213.0.2/30", "10.213.0.5", "not another host")));
