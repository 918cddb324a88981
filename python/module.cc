// The native half of the `commsim` Python package (python/commsim/__init__.py is the other): the
// functions docs/python.md documents, taking and returning plain values; the package turns them
// into DataFrames and Python exceptions.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "base/error.h"
#include "compression/registry.h"
#include "models/registry.h"
#include "python/python_compressor.h"
#include "python/runs.h"
#include "scenarios/compress_report.h"
#include "scenarios/json_config.h"
#include "sim/topology_registry.h"

namespace py = pybind11;

namespace commsim::python {
namespace {

// Every entry of `registry`: name, help and the defaults of its parameters.
template <class R>
nlohmann::json Entries(const R& registry) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& entry : registry.entries()) {
    const std::unique_ptr<Config> config = entry.make_config();
    out.push_back({{"name", entry.name}, {"help", entry.help}, {"params", WriteConfig(*config)}});
  }
  return out;
}

// The registries as JSON text: {kind: [{name, help, params}, ...]}.
std::string ListRegistries() {
  nlohmann::json out;
  out[std::string(kAlgorithmKind)] = Entries(AlgorithmRegistry());
  out[std::string(kCompressorKind)] = Entries(CompressorRegistry());
  out[kTopologyKind] = Entries(TopologyRegistry());
  out[std::string(kModelKind)] = Entries(ModelRegistry());
  out[std::string(kDatasetKind)] = Entries(DatasetRegistry());
  out[std::string(kPartitionKind)] = Entries(PartitionRegistry());
  return out.dump();
}

// Encodes x with the compressor `spec` (JSON text, or a bare name) and decodes it, as `commsim
// compress` does: the encoder's Rng is DeriveSeed(seed, 0, "compress"). Returns (payload bits,
// decoded vector, ||Q(x) - x||^2 / ||x||^2 (0 for x = 0)).
py::tuple Compress(const std::string& spec,
                   const py::array_t<double, py::array::c_style | py::array::forcecast>& x,
                   uint64_t seed) {
  if (x.ndim() != 1) throw UserError("compress: expected a one-dimensional vector");
  const std::unique_ptr<Compressor> compressor =
      CompressorRegistry().Make(ParseCompressorArg(spec));
  const Eigen::Map<const Eigen::VectorXd> input(x.data(), x.size());
  py::array_t<double> decoded(x.size());
  Eigen::Map<Eigen::VectorXd> out(decoded.mutable_data(), decoded.size());
  Rng rng(DeriveSeed(seed, 0, "compress"));
  const Message m = compressor->EncodeWithDecoded(input, rng, DecodeTarget(out));
  const double norm = input.squaredNorm();
  const double error = norm > 0 ? (out - input).squaredNorm() / norm : 0.0;
  return py::make_tuple(m.payload_bits, decoded, error);
}

// The params of a Python class: (key, default) pairs, each default a bool, int, float or str.
std::vector<PythonParam> Params(const std::vector<std::pair<std::string, py::object>>& given) {
  std::vector<PythonParam> params;
  for (const auto& [key, value] : given) {
    PythonParam p;
    p.key = key;
    if (py::isinstance<py::bool_>(value)) {
      p.kind = PythonParam::Kind::kBool;
      p.flag = value.cast<bool>();
    } else if (py::isinstance<py::int_>(value)) {
      p.kind = PythonParam::Kind::kInt;
      p.integer = value.cast<int64_t>();
    } else if (py::isinstance<py::float_>(value)) {
      p.kind = PythonParam::Kind::kReal;
      p.real = value.cast<double>();
    } else if (py::isinstance<py::str>(value)) {
      p.kind = PythonParam::Kind::kText;
      p.text = value.cast<std::string>();
    } else {
      throw UserError("params: " + key + ": expected a bool, int, float or str default");
    }
    params.push_back(std::move(p));
  }
  return params;
}

void Register(const std::string& name, const std::string& help,
              const std::vector<std::pair<std::string, py::object>>& params, bool unbiased) {
  if (RunInProgress()) {
    throw UserError("register_compressor: a run is in progress; register before running");
  }
  RegisterPythonCompressor(name, help, Params(params), unbiased);
}

}  // namespace
}  // namespace commsim::python

PYBIND11_MODULE(_commsim, m) {
  using namespace commsim::python;
  m.doc() = "The native half of the commsim package (docs/python.md).";
  py::register_exception<commsim::UserError>(m, "UserError", PyExc_ValueError);
  py::register_exception<commsim::DecodeError>(m, "DecodeError", PyExc_ValueError);
  m.attr(kFactoriesAttr) = py::dict();
  m.attr("home") = COMMSIM_SOURCE_DIR;
  m.def("run",
        [](const std::string& file, const std::string& text, const std::vector<std::string>& sets,
           const std::string& out, int jobs, int threads, const py::object& progress) {
          return RunScenarioTo(Source{file, text}, sets, out, jobs, threads, progress);
        });
  m.def("sweep",
        [](const std::string& file, const std::string& text, const std::string& out, int jobs,
           int threads, bool keep_runs, bool restart, const py::object& progress) {
          return RunSweepTo(Source{file, text}, out, jobs, threads, keep_runs, restart, progress);
        });
  m.def("validate",
        [](const std::string& file, const std::string& text, const std::vector<std::string>& sets) {
          return ValidateSource(Source{file, text}, sets);
        });
  m.def("list", &ListRegistries);
  m.def("compress", &Compress);
  m.def("register_compressor", &Register);
}
