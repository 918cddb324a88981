// A compressor written in Python (docs/python.md), as the simulator uses it.
//
// The Python side (python/commsim/_compressor.py) wraps the user's class in an adaptor whose
// encode(x, seed) returns (a C-contiguous byte buffer, bits) and whose decode(payload, d) returns
// d float64 values; it checks the types, shapes and that the buffer holds exactly ceil(bits / 8)
// bytes, so here a payload is copied into the message's words as given (bits past payload_bits
// zeroed, as the wire contract requires), and payload_bits is the bits the class reports.
// Every call holds the GIL for as long as Python runs; x reaches Python as a read-only NumPy view
// of the simulator's vector (no copy), valid during the call only.
// Randomness: when the class's encode takes an rng, each encode draws one 64-bit seed from the
// simulator's Rng and the adaptor hands encode numpy.random.default_rng(seed): the run stays
// deterministic when the Python code is. Otherwise the Rng is left untouched.
// Errors: NaN/Inf input is refused before Python runs (NonFiniteError: status "diverged"); an
// exception raised in Python becomes a std::runtime_error "<name>: <Type>: <message>", which the
// run drivers record as that entry's status "error".
// ErrorFactor is the class's `error_factor` (a number) or +infinity; Expected(x) encodes x once
// and reports the measured bits, error and nonzeros (a Python class states no closed form).
#ifndef COMMSIM_PYTHON_PYTHON_COMPRESSOR_H_
#define COMMSIM_PYTHON_PYTHON_COMPRESSOR_H_

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/params.h"
#include "compression/compressors/compressor.h"

namespace commsim::python {

// One constructor argument of a Python compressor: a JSON key with its default, whose type
// (bool, integer, real or text) the scenario value must have.
struct PythonParam {
  enum class Kind { kBool, kInt, kReal, kText };
  std::string key;
  Kind kind = Kind::kReal;
  bool flag = false;
  int64_t integer = 0;
  double real = 0.0;
  std::string text;
};

// The config of a Python compressor: the class's `params`, in the order it lists them.
struct PythonCompressorConfig final : ConfigBase<PythonCompressorConfig> {
  std::vector<PythonParam> params;
  void Describe(ParamVisitor& v) override;
};

class PythonCompressor final : public Compressor {
 public:
  // `name` must outlive the compressor (an interned name, see RegisterPythonCompressor);
  // `adaptor` is the adaptor object. REQUIRES: the GIL is held.
  PythonCompressor(std::string_view name, bool unbiased, double error_factor,
                   pybind11::object adaptor);
  ~PythonCompressor() override;
  COMMSIM_COMPRESSOR_MEMBERS;

 private:
  Message EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                     const DecodeTarget* target) const override;

  double error_factor_;
  bool wants_rng_;
  pybind11::object adaptor_;
};

// The module attribute holding the factories: commsim._commsim._factories[name] is a callable
// taking the params as keyword arguments and returning an adaptor. The registry entry looks the
// factory up there under the GIL and holds no Python object itself, so none outlives the
// interpreter.
inline constexpr char kFactoriesModule[] = "commsim._commsim";
inline constexpr char kFactoriesAttr[] = "_factories";

// Adds (or replaces) the compressor `name` in the compression registry, with the params
// `defaults`. Throws UserError when a built-in compressor has that name.
void RegisterPythonCompressor(const std::string& name, const std::string& help,
                              std::vector<PythonParam> defaults, bool unbiased);

}  // namespace commsim::python

#endif  // COMMSIM_PYTHON_PYTHON_COMPRESSOR_H_
