/* DLPack's structs (DLManagedTensor, DLTensor, DLDevice, DLDataType) for
 * porta/interop.h: Debian's libdlpack-dev (dlpack/dlpack.h, DLPack 0.6 or
 * later; its DLManagedTensor layout is the one every DLPack version since
 * 0.2 exchanges). */
#ifndef PORTA_DLPACK_H
#define PORTA_DLPACK_H

#include <dlpack/dlpack.h>

#endif /* PORTA_DLPACK_H */
