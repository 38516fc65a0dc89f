// Errors inside libporta: a Failure carries a status and a complete message;
// at the C boundary guard() turns it into a porta_status and the calling
// thread's porta_last_error().
#pragma once

#include <functional>
#include <stdexcept>
#include <string>

#include "porta/porta.h"
#include "porta_common/format.hpp"

namespace porta::core {

// A failure with its status and a complete message. Thrown inside libporta and
// turned into a porta_status + porta_last_error() at the C boundary.
struct Failure : std::runtime_error {
  Failure(porta_status status, const std::string& message) : std::runtime_error(message), status(status) {}
  porta_status status;
};

[[noreturn, gnu::format(printf, 2, 3)]] void fail(porta_status status, const char* fmt, ...);
using common::format;

void set_last_error(porta_status status, const std::string& message);
// A failure at the C boundary: set_last_error, then the host's error
// callback (porta_set_error_callback). Returns `status`.
porta_status report_error(porta_status status, const std::string& message);
void clear_last_error();
// The message of the last error without its status name.
const std::string& last_error_cause();

// Inside a catch block: reports the exception being handled (report_error)
// and returns its status.
porta_status report_current_exception() noexcept;

// Runs `body` at the C boundary: exceptions become the returned status. A
// template, so that a call's body is no std::function (no allocation per call).
template <class Body>
porta_status guard(Body&& body) noexcept {
  try {
    body();
    return PORTA_SUCCESS;
  } catch (...) {
    return report_current_exception();
  }
}

}  // namespace porta::core
