// The CUDA backend as a porta plugin: cuda_plugin.hpp declares its Backend,
// and the file of each concern defines its entries (device, memory, kernel,
// stream).
#include "cuda_plugin.hpp"

PORTA_PLUGIN_ENTRY(porta::cuda::Backend)
