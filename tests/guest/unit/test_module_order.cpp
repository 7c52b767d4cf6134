// Module load order from modules.dep. The sample is depmod's output for the
// Debian 12 kernel's modules the guest needs.

#include "module_order.h"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

using namespace arizuko::guest;

namespace {

std::string sample()
{
    std::ifstream file(MODULES_DEP_SAMPLE);
    std::stringstream content;
    content << file.rdbuf();
    return content.str();
}

std::vector<std::string> namesOf(const std::vector<std::string> &paths)
{
    std::vector<std::string> names;
    for (const std::string &path : paths)
        names.push_back(moduleName(path));
    return names;
}

std::size_t positionOf(const std::vector<std::string> &names, const std::string &name)
{
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

} // namespace

TEST(ModulesDep, ParsesEntriesAndDependencies)
{
    const auto modules = parseModulesDep(sample());
    ASSERT_EQ(modules.size(), 21u);
    EXPECT_EQ(modules[0].path, "kernel/arch/x86/crypto/crc32c-intel.ko");
    EXPECT_TRUE(modules[0].dependencies.empty());
    EXPECT_EQ(modules[6].path, "kernel/fs/9p/9p.ko");
    EXPECT_EQ(modules[6].dependencies,
              (std::vector<std::string>{"kernel/net/9p/9pnet.ko", "kernel/fs/fscache/fscache.ko",
                                        "kernel/fs/netfs/netfs.ko"}));
}

TEST(ModulesDep, RejectsLinesThatAreNotEntries)
{
    EXPECT_THROW(parseModulesDep("kernel/a.ko kernel/b.ko\n"), ModuleError);
    EXPECT_THROW(parseModulesDep("kernel/a.ko kernel/c.ko: kernel/b.ko\n"), ModuleError);
    EXPECT_NO_THROW(parseModulesDep("\n  \nkernel/a.ko:\n"));
}

TEST(ModuleName, StripsDirectoryAndSuffixAndUnifiesDashes)
{
    EXPECT_EQ(moduleName("kernel/fs/9p/9p.ko"), "9p");
    EXPECT_EQ(moduleName("kernel/arch/x86/crypto/crc32c-intel.ko"), "crc32c_intel");
    EXPECT_EQ(moduleName("kernel/net/9p/9pnet_virtio.ko.xz"), "9pnet_virtio");
    EXPECT_EQ(moduleName("virtio-blk"), "virtio_blk");
}

TEST(ModuleLoadOrder, NinePeeChainLoadsInTheOrderThatWorks)
{
    const auto order = namesOf(moduleLoadOrder(parseModulesDep(sample()), {"9pnet_virtio", "9p"}));
    EXPECT_EQ(order, (std::vector<std::string>{"virtio_ring", "virtio", "9pnet", "9pnet_virtio",
                                               "netfs", "fscache", "9p"}));
}

TEST(ModuleLoadOrder, EveryModuleComesAfterAllItNeeds)
{
    const auto modules = parseModulesDep(sample());
    std::vector<std::string> everything;
    for (const ModuleEntry &entry : modules)
        everything.push_back(moduleName(entry.path));
    const auto order = namesOf(moduleLoadOrder(modules, everything));

    EXPECT_EQ(order.size(), modules.size()) << "each module exactly once";
    for (const ModuleEntry &entry : modules) {
        for (const std::string &dependency : entry.dependencies)
            EXPECT_LT(positionOf(order, moduleName(dependency)),
                      positionOf(order, moduleName(entry.path)))
                << moduleName(dependency) << " must load before " << moduleName(entry.path);
    }
    EXPECT_LT(positionOf(order, "virtio_ring"), positionOf(order, "virtio"));
}

TEST(ModuleLoadOrder, AcceptsDashedAndUnderscoredNames)
{
    const auto modules = parseModulesDep(sample());
    EXPECT_EQ(moduleLoadOrder(modules, {"crc32c_intel"}),
              std::vector<std::string>{"kernel/arch/x86/crypto/crc32c-intel.ko"});
    EXPECT_EQ(moduleLoadOrder(modules, {"virtio-blk"}).back(),
              "kernel/drivers/block/virtio_blk.ko");
}

TEST(ModuleLoadOrder, UnknownModuleIsAnError)
{
    EXPECT_THROW(moduleLoadOrder(parseModulesDep(sample()), {"virtiofs"}), ModuleError);
}

TEST(ModuleLoadOrder, MissingDependencyIsAnError)
{
    EXPECT_THROW(moduleLoadOrder(parseModulesDep("kernel/a.ko: kernel/gone.ko\n"), {"a"}),
                 ModuleError);
}

TEST(ModuleLoadOrder, CycleIsAnError)
{
    const auto modules = parseModulesDep("kernel/a.ko: kernel/b.ko\nkernel/b.ko: kernel/a.ko\n");
    EXPECT_THROW(moduleLoadOrder(modules, {"a"}), ModuleError);
}
