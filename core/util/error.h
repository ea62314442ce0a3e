// Error type of the engine: every refusal of bad input is one of these, with
// a message a person can act on (what, where, what was expected).
#pragma once

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

} // namespace hearth
