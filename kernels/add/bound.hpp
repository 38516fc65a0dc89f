// Error bound of add: one IEEE add, correctly rounded (0.5 ulp), so every
// backend gives the same bits. Broadcasting only picks which elements meet.
#pragma once

namespace porta::ops {

constexpr double kAddUlp = 0.5;

}  // namespace porta::ops
