// Plain C++ loops on the host, the CPU backend's peer for mul, sigmoid, the
// copy bound and the logistic-regression step.
#pragma once

#include <functional>

#include "peer.h"

namespace porta::bench {

const porta_bench_peer* host_loops_peer();

}  // namespace porta::bench
