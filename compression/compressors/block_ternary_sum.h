// block_ternary's messages added to a sum in one pass (BlockTernary::DecodeSumInto and
// DecodeSumFromZero, compressor.h), for the fixed2, packed and sparse codings, whose messages
// hold each block's norm and then its codes, block after block: the sum is walked block by block
// and every message adds its values of the block (one BitReader each) while the block is in the
// L1 cache, so a server's sum of n uplinks is read and written once instead of n times.
//
// Bits: element j of the sum gets out_j = out_j + weight * v_j for each message in turn, in the
// message order, with v_j = norm * symbol as DecodeInto delivers it: the bits of one DecodeInto
// per message into DecodeTarget(out, out, weight). A corrupted message throws DecodeError as
// DecodeInto does (possibly after other messages' values of earlier blocks were added).
#ifndef COMMSIM_COMPRESSION_COMPRESSORS_BLOCK_TERNARY_SUM_H_
#define COMMSIM_COMPRESSION_COMPRESSORS_BLOCK_TERNARY_SUM_H_

#include <Eigen/Core>
#include <cstdint>
#include <span>

#include "compression/coding/bit_reader.h"
#include "compression/compressors/block_ternary.h"
#include "compression/compressors/compressor.h"
#include "compression/compressors/simd_versions.h"

namespace commsim::ternary_sum {

// How the messages were coded: block size and coding (REQUIRES: not kEntropy).
struct Layout {
  int64_t block;
  BlockTernary::Coding coding;
};

// out[j] = out[j] + weight * v_j for j in [0, d), each message in turn (the header's bits).
void AddInto(std::span<const Message* const> messages, Layout layout, double weight, double* out,
             int64_t d);

// Compressor::DecodeSumFromZero for these messages (d = scratch.size()): chunks of whole blocks,
// each summed from zero in a buffer of its own (in scratch's segment of the chunk when the blocks
// are too long for it) and handed to `done`; the chunk that ends at d only once every message has
// been read to its end.
void SumFromZero(std::span<const Message* const> messages, Layout layout,
                 Eigen::Ref<Eigen::VectorXd> scratch, const Compressor::SumChunkDone& done);

// One fixed2 block of n codes read from r (2 bits each, 32 per 64-bit field, invalid code 10 a
// DecodeError) added to out: out[k] = out[k] + table[code k], where table[c] = weight * (the value
// of code c: 0, norm, 0, -norm). In version `version` (simd_versions.h; all give the same bits),
// for tests: false, with nothing read, when the machine does not run it.
bool AddFixed2With(SimdVersion version, BitReader& r, int64_t n, const double table[4],
                   double* out);

}  // namespace commsim::ternary_sum

#endif  // COMMSIM_COMPRESSION_COMPRESSORS_BLOCK_TERNARY_SUM_H_
