#include "python/python_compressor.h"

#include <fmt/format.h>
#include <pybind11/numpy.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <set>
#include <stdexcept>

#include "compression/compressors/wire.h"
#include "compression/registry.h"

namespace py = pybind11;

namespace commsim::python {
namespace {

// "<compressor>: <Type>: <message>" for an exception raised in Python.
std::runtime_error PythonFailure(std::string_view name, std::string_view call,
                                 const py::error_already_set& e) {
  const std::string type = py::str(e.type().attr("__name__"));
  const std::string text = py::str(e.value());
  return std::runtime_error(fmt::format("{}: {} raised {}: {}", name, call, type, text));
}

// Interned names: a compressor's name and its messages' `codec` must outlive it (message.h).
std::string_view Intern(const std::string& name) {
  static std::mutex mutex;
  static std::set<std::string, std::less<>> names;
  std::lock_guard<std::mutex> lock(mutex);
  return *names.insert(name).first;
}

// The message of `bits` bits whose bytes are `payload`. REQUIRES: payload holds ceil(bits / 8)
// bytes (the adaptor checks it).
Message MessageFromBytes(const py::buffer_info& payload, int64_t bits) {
  Message m;
  m.payload_bits = bits;
  m.words.assign(static_cast<size_t>((bits + 63) / 64), 0);
  const size_t bytes = static_cast<size_t>((bits + 7) / 8);
  if (bytes > 0) std::memcpy(m.words.data(), payload.ptr, bytes);
  if (bits % 64 != 0) m.words.back() &= (uint64_t{1} << (bits % 64)) - 1;
  return m;
}

// A read-only NumPy view of x (no copy), valid while x is.
py::array_t<double> View(const Eigen::Ref<const Eigen::VectorXd>& x) {
  py::array_t<double> view({x.size()}, {static_cast<py::ssize_t>(sizeof(double))}, x.data(),
                           py::capsule(x.data(), [](void*) {}));
  py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return view;
}

}  // namespace

void PythonCompressorConfig::Describe(ParamVisitor& v) {
  for (PythonParam& p : params) {
    switch (p.kind) {
      case PythonParam::Kind::kBool:
        v.Bool(p.key, p.flag, "a parameter of the Python class");
        break;
      case PythonParam::Kind::kInt:
        v.Int(p.key, p.integer, Range::Any(), "a parameter of the Python class");
        break;
      case PythonParam::Kind::kReal:
        v.Real(p.key, p.real, Range::Any(), "a parameter of the Python class");
        break;
      case PythonParam::Kind::kText:
        v.Text(p.key, p.text, {}, "a parameter of the Python class");
        break;
    }
  }
}

PythonCompressor::PythonCompressor(std::string_view name, bool unbiased, double error_factor,
                                   py::object adaptor)
    : Compressor(name, unbiased),
      error_factor_(error_factor),
      wants_rng_(adaptor.attr("wants_rng").cast<bool>()),
      adaptor_(std::move(adaptor)) {}

PythonCompressor::~PythonCompressor() {
  py::gil_scoped_acquire gil;
  adaptor_ = py::object();
}

Message PythonCompressor::EncodeImpl(const Eigen::Ref<const Eigen::VectorXd>& x, Rng& rng,
                                     const DecodeTarget* target) const {
  RequireFinite(Name(), x);
  const uint64_t seed = wants_rng_ ? rng.NextU64() : 0;
  Message message;
  {
    py::gil_scoped_acquire gil;
    try {
      const py::tuple out = adaptor_.attr("encode")(View(x), seed);
      const py::buffer payload = out[0];
      message = MessageFromBytes(payload.request(), out[1].cast<int64_t>());
    } catch (const py::error_already_set& e) {
      throw PythonFailure(Name(), "encode", e);
    }
  }
  message.codec = Name();
  message.elements = x.size();
  DeliverDecoded(message, target);
  return message;
}

void PythonCompressor::DecodeInto(const Message& message, const DecodeTarget& target) const {
  py::gil_scoped_acquire gil;
  try {
    const py::bytes payload(reinterpret_cast<const char*>(message.words.data()),
                            static_cast<size_t>((message.payload_bits + 7) / 8));
    const py::array_t<double> values = adaptor_.attr("decode")(payload, target.size());
    target.PutAll(Eigen::Map<const Eigen::VectorXd>(values.data(), values.size()));
  } catch (const py::error_already_set& e) {
    throw PythonFailure(Name(), "decode", e);
  }
}

double PythonCompressor::ErrorFactor(int64_t /*dim*/) const { return error_factor_; }

Expectation PythonCompressor::Expected(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  Rng rng(DeriveSeed(1, 0, "python-expected"));
  Eigen::VectorXd decoded(x.size());
  const Message m = EncodeWithDecoded(x, rng, DecodeTarget(decoded));
  Expectation e;
  e.payload_bits = static_cast<double>(m.payload_bits);
  e.bits_formula = "measured (a Python compressor states no closed form)";
  e.squared_error = (decoded - x).squaredNorm();
  e.nonzeros = static_cast<double>((decoded.array() != 0.0).count());
  return e;
}

void RegisterPythonCompressor(const std::string& name, const std::string& help,
                              std::vector<PythonParam> defaults, bool unbiased) {
  const std::string_view interned = Intern(name);
  Registry<Compressor>::Entry entry;
  entry.name = name;
  entry.help = help;
  entry.make_config = [defaults] {
    auto config = std::make_unique<PythonCompressorConfig>();
    config->params = defaults;
    return std::unique_ptr<Config>(std::move(config));
  };
  entry.make = [interned, unbiased](const Config& config) -> std::unique_ptr<Compressor> {
    py::gil_scoped_acquire gil;
    py::dict kwargs;
    for (const PythonParam& p : static_cast<const PythonCompressorConfig&>(config).params) {
      const py::str key(p.key);
      switch (p.kind) {
        case PythonParam::Kind::kBool:
          kwargs[key] = p.flag;
          break;
        case PythonParam::Kind::kInt:
          kwargs[key] = p.integer;
          break;
        case PythonParam::Kind::kReal:
          kwargs[key] = p.real;
          break;
        case PythonParam::Kind::kText:
          kwargs[key] = p.text;
          break;
      }
    }
    try {
      const py::object factory =
          py::module_::import(kFactoriesModule).attr(kFactoriesAttr)[py::str(interned)];
      py::object adaptor = factory(**kwargs);
      const double factor = adaptor.attr("error_factor").cast<double>();
      return std::make_unique<PythonCompressor>(interned, unbiased, factor, std::move(adaptor));
    } catch (const py::error_already_set& e) {
      throw UserError(PythonFailure(interned, "__init__", e).what());
    }
  };
  AddRuntimeCompressor(std::move(entry));
}

}  // namespace commsim::python
