// Error type of the engine: every refusal of bad input is one of these, with
// a message a person can act on (what, where, what was expected).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace hearth {

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// Thrown when a long operation stops because its caller asked it to.
class Cancelled : public Error {
public:
    Cancelled() : Error("cancelled") {}
};

// A device allocation that did not fit: `requested` bytes asked for while
// `available` were left of the device's budget (both 0 when unknown).
class OutOfDeviceMemory : public Error {
public:
    OutOfDeviceMemory(const std::string& message, uint64_t requested, uint64_t available)
        : Error(message), requested(requested), available(available)
    {
    }
    uint64_t requested, available;
};

// The GPU stopped working (driver reset, hang, removal): everything on it is
// gone; the backend refuses further work and the model must be reloaded.
class DeviceLost : public Error {
public:
    explicit DeviceLost(const std::string& message) : Error(message) {}
};

} // namespace hearth
