// libFuzzer driver: every registered compressor's decoder on arbitrary messages, and encode ->
// decode round trips on arbitrary vectors.
//
// The input picks (FuzzedDataProvider) the compressor by its index in CompressorRegistry(), so a
// new compressor is fuzzed without an edit here; then its config fields (FillConfig, within each
// field's range; configs its Validate() rejects are skipped), the dimension d in [1, kMaxDim] and
// a mode:
//   decode      the bytes left are the message (payload_bits = 8 * bytes - trim, or a message
//               claiming more bits than it holds). Decode may throw DecodeError; when it returns,
//               every value must be finite.
//   round trip  an Rng seed and d values (small integers with ties, moderate reals, or any
//               double). Encode may refuse the vector with a UserError (non-finite, beyond fp32);
//               otherwise its message must decode without error, to finite values, identically
//               twice, with exactly ceil(payload_bits / 64) words.
//   corrupt     the round trip's message with up to 8 bits flipped or overwritten by 64-bit
//               fields from the input, then cut or extended: reaches the decoders' deeper states
//               that random bytes rarely get past the headers to. Decode as in `decode`.
// In `decode` and `corrupt` the message also goes through a server's paths, twice over
// (CheckSums): DecodeSumFromZero and DecodeSumInto must throw DecodeError exactly when Decode
// does, and otherwise give (0 + v) + v and (b + w v) + w v for Decode's v, bit for bit.
#include <Eigen/Core>
#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/fuzz_support.h"
#include "compression/registry.h"

namespace commsim {
namespace {

using fuzz::FuzzCheck;

constexpr int64_t kMaxDim = 2048;
// Block, bucket, levels and k may be large: the decoders' work is bounded by d and the message.
constexpr int64_t kIntCap = int64_t{1} << 20;

Message MessageFrom(FuzzedDataProvider& in) {
  const int trim = in.ConsumeIntegralInRange<int>(0, 63);
  const bool lying = in.ConsumeIntegralInRange<int>(0, 15) == 0;
  const std::vector<uint8_t> bytes = in.ConsumeRemainingBytes<uint8_t>();
  Message m;
  m.payload_bits = std::max<int64_t>(0, 8 * static_cast<int64_t>(bytes.size()) - trim);
  m.words.assign(static_cast<size_t>((m.payload_bits + 63) / 64), 0);
  for (size_t i = 0; i < bytes.size() && i / 8 < m.words.size(); ++i) {
    m.words[i / 8] |= uint64_t{bytes[i]} << (8 * (i % 8));
  }
  if (m.payload_bits % 64 != 0) {  // bits past payload_bits are zero (Message contract)
    m.words.back() &= (uint64_t{1} << (m.payload_bits % 64)) - 1;
  }
  if (lying) m.payload_bits += 1 + trim;  // more bits than the words hold
  return m;
}

Eigen::VectorXd VectorFrom(FuzzedDataProvider& in, int64_t d) {
  Eigen::VectorXd x(d);
  const int style = in.ConsumeIntegralInRange<int>(0, 2);
  for (int64_t i = 0; i < d; ++i) {
    switch (style) {
      case 0:
        x[i] = in.ConsumeIntegralInRange<int>(-2, 2);
        break;
      case 1:
        x[i] = in.ConsumeFloatingPointInRange<double>(-1e3, 1e3);
        break;
      default:
        x[i] = in.ConsumeFloatingPoint<double>();
        break;
    }
  }
  return x;
}

// Whether fn throws DecodeError (any other exception goes on to FuzzGuard).
template <class Fn>
bool Rejects(Fn&& fn) {
  try {
    fn();
  } catch (const DecodeError&) {
    return true;
  }
  return false;
}

bool SameBits(double a, double b) {
  return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

// Decode(m), and the server's paths on the run [m, m]: each rejects m exactly when Decode does;
// otherwise DecodeSumFromZero hands over chunks that cover [0, d) in order with the values
// (0 + v) + v (compressor.h: a sum from zero; -0 becomes +0), and DecodeSumInto onto b with
// weight w leaves (b + w v) + w v, for Decode's v.
void CheckSums(const Compressor& c, const Message& m, int64_t d) {
  Eigen::VectorXd v = Eigen::VectorXd::Constant(d, -7.0);
  const bool rejected = Rejects([&] { c.Decode(m, v); });
  FuzzCheck(rejected || v.allFinite(), "a decoded message holds a non-finite value");
  const Message* run[] = {&m, &m};
  Eigen::VectorXd scratch(d), sum = Eigen::VectorXd::Constant(d, -7.0);
  int64_t next = 0;
  const bool sum_rejected = Rejects([&] {
    c.DecodeSumFromZero(run, scratch, [&](int64_t begin, int64_t end, const double* values) {
      FuzzCheck(begin == next && begin < end && end <= d, "sum chunks out of order");
      std::copy(values, values + (end - begin), sum.data() + begin);
      next = end;
    });
  });
  FuzzCheck(sum_rejected == rejected, "DecodeSumFromZero and Decode disagree on the message");
  Eigen::VectorXd acc = Eigen::VectorXd::Constant(d, 1.5);
  const bool into_rejected = Rejects([&] { c.DecodeSumInto(run, DecodeTarget(acc, acc, 0.5)); });
  FuzzCheck(into_rejected == rejected, "DecodeSumInto and Decode disagree on the message");
  if (rejected) return;
  FuzzCheck(next == d, "the sum's chunks do not cover the vector");
  for (int64_t j = 0; j < d; ++j) {
    FuzzCheck(SameBits(sum[j], (0.0 + v[j]) + v[j]),
              "DecodeSumFromZero is not the sum of the decodes");
    FuzzCheck(SameBits(acc[j], (1.5 + 0.5 * v[j]) + 0.5 * v[j]),
              "DecodeSumInto is not the sum of the decodes");
  }
}

void Decode(const Compressor& c, FuzzedDataProvider& in, int64_t d) {
  const Message m = MessageFrom(in);
  fuzz::FuzzGuard([&] { CheckSums(c, m, d); });
}

// Encodes a vector from the input; false when the compressor refuses it (non-finite, beyond fp32).
bool EncodeFrom(const Compressor& c, FuzzedDataProvider& in, int64_t d, Message& m) {
  Rng rng(in.ConsumeIntegral<uint64_t>());
  const Eigen::VectorXd x = VectorFrom(in, d);
  try {
    m = c.Encode(x, rng);
  } catch (const UserError&) {
    return false;
  }
  return true;
}

void Corrupt(const Compressor& c, FuzzedDataProvider& in, int64_t d) {
  Message m;
  const int edits = in.ConsumeIntegralInRange<int>(1, 8);
  const int64_t new_end = in.ConsumeIntegralInRange<int64_t>(-64, 64);
  std::vector<std::pair<uint64_t, uint64_t>> fields;  // (bit position, 64-bit value or flip)
  for (int i = 0; i < edits; ++i) {
    fields.emplace_back(in.ConsumeIntegral<uint64_t>(), in.ConsumeIntegral<uint64_t>());
  }
  if (!EncodeFrom(c, in, d, m)) return;
  for (const auto& [where, value] : fields) {
    if (m.payload_bits == 0) break;
    const uint64_t bit = where % static_cast<uint64_t>(m.payload_bits);
    if (value & 1) {
      m.words[bit / 64] ^= uint64_t{1} << (bit % 64);
    } else {  // overwrite up to 64 bits from `bit` with `value`
      const int off = static_cast<int>(bit % 64);
      m.words[bit / 64] ^= (m.words[bit / 64] ^ (value << off)) & (~uint64_t{0} << off);
    }
  }
  const int64_t bits = std::max<int64_t>(0, m.payload_bits + new_end);
  m.words.resize(static_cast<size_t>((bits + 63) / 64), 0);
  m.payload_bits = bits;
  if (bits % 64 != 0) m.words.back() &= (uint64_t{1} << (bits % 64)) - 1;
  fuzz::FuzzGuard([&] { CheckSums(c, m, d); });
}

void RoundTrip(const Compressor& c, FuzzedDataProvider& in, int64_t d) {
  Message m;
  if (!EncodeFrom(c, in, d, m)) return;
  FuzzCheck(static_cast<int64_t>(m.words.size()) == (m.payload_bits + 63) / 64,
            "Encode's words do not match payload_bits");
  Eigen::VectorXd a(d), b(d);
  try {
    c.Decode(m, a);
    c.Decode(m, b);
  } catch (const DecodeError& e) {
    std::fprintf(stderr, "%s: own message rejected: %s\n", std::string(c.Name()).c_str(), e.what());
    std::abort();
  }
  FuzzCheck(a.allFinite(), "round trip decoded to a non-finite value");
  FuzzCheck(a == b, "decoding the same message twice gave different vectors");
}

// One input: a registered compressor with a fuzzed config, a dimension and a mode.
void FuzzOneCompressor(FuzzedDataProvider& in) {
  const auto& entries = CompressorRegistry().entries();
  const auto& entry = entries[in.ConsumeIntegralInRange<size_t>(0, entries.size() - 1)];
  ComponentSpec spec = CompressorRegistry().DefaultSpec(kCompressorKind, entry.name);
  if (!fuzz::FillConfig(in, *spec.config, kIntCap)) return;
  const int64_t d = in.ConsumeIntegralInRange<int64_t>(1, kMaxDim);
  const int mode = in.ConsumeIntegralInRange<int>(0, 2);
  std::unique_ptr<Compressor> compressor;
  fuzz::FuzzGuard([&] { compressor = CompressorRegistry().Make(spec); });
  if (!compressor) return;
  switch (mode) {
    case 0:
      Decode(*compressor, in, d);
      break;
    case 1:
      RoundTrip(*compressor, in, d);
      break;
    default:
      Corrupt(*compressor, in, d);
      break;
  }
}

}  // namespace
}  // namespace commsim

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return commsim::fuzz::FuzzWithProvider(data, size, 8192, commsim::FuzzOneCompressor);
}
