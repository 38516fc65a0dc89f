// The message of the porta::data::Error `f` throws ("" when it throws none).
#pragma once

#include <string>

#include "porta_data/table.hpp"

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const porta::data::Error& e) {
    return e.what();
  }
  return "";
}
