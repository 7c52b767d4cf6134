# The proxy's pure logic (no sockets, no threads): parsing, matching, classification, framing.
# Shared by egress/CMakeLists.txt and the clang-built fuzzer project in tests/egress/fuzz.
set(ARIZUKO_EGRESS_CORE_SOURCES
    address_policy.cpp
    answer_line.cpp
    base64.cpp
    byte_buffer.cpp
    config.cpp
    decision_log.cpp
    deadline_queue.cpp
    forward_head.cpp
    header_fields.cpp
    host_matcher.cpp
    host_name.cpp
    http_framing.cpp
    json_line.cpp
    pending_questions.cpp
    reason.cpp
    request_head.cpp
    request_rules.cpp
    response_head.cpp
    secret_bindings.cpp
    socket_address.cpp
    value_scrubber.cpp
)
