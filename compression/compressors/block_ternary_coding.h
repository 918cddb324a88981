// The wire codings of block_ternary's symbols {-1, 0, +1}
// (compression/compressors/block_ternary.h): the writer of the entropy coding (the packed and
// sparse writers work on symbol masks: ternary_masks.h), and a reader per coding that delivers one
// block's decoded values (norm times the symbol) to a DecodeTarget. packed: 5 symbols per byte,
// base 3 (0, +1, -1 -> 0, 1, 2), the first symbol least significant; sparse: the nonzero count,
// then (sign, index) of each nonzero.
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_BLOCK_TERNARY_CODING_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_BLOCK_TERNARY_CODING_H_

#include <cstdint>
#include <vector>

#include "compression/coding/bit_reader.h"
#include "compression/coding/bit_writer.h"
#include "compression/compressors/compressor.h"

namespace commsim::ternary_coding {

// entropy: after all norms, the symbols of the nonzero blocks through one adaptive model (sym:
// the d symbols, read only in the blocks whose norm is nonzero).
void PutEntropy(const int8_t* sym, int64_t d, const std::vector<float>& norms, int64_t block,
                BitWriter& w);

// Readers of one block (n symbols, the block's norm): each delivers norm * symbol to `o`, the
// block's segment of the decode target, and throws DecodeError on a malformed block.
void GetFixed2(BitReader& r, int64_t n, double norm, const DecodeTarget& o);

void GetPacked(BitReader& r, int64_t n, double norm, const DecodeTarget& o);

// REQUIRES: norm > 0 (a zero block has no sparse part).
void GetSparse(BitReader& r, int64_t n, double norm, const DecodeTarget& o);

// entropy: the symbols of every block with a nonzero norm (`norms`, read first), into the whole
// target `out`.
void GetEntropy(BitReader& r, const std::vector<float>& norms, int64_t block,
                const DecodeTarget& out);

}  // namespace commsim::ternary_coding

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_BLOCK_TERNARY_CODING_H_
