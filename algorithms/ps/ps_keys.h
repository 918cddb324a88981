// The scenario keys that parameter-server algorithms share, as bases of their configs:
//   PsLinkKeys   `uplink` and `downlink` (the two link compressors) and `verify_replicas` (the
//                debug switch of the workers' copies that are stored once, replicas.h): every
//                PS algorithm;
//   PsStateKeys  adds `precision` ("float64" or "float32": storage of the per-worker state
//                vectors, worker_vectors.h): the rules that keep a vector per worker (DIANA,
//                MEM-SGD, DoubleSqueeze, DORE).
// A config derives from one of them, names its default compressors in the constructor, and in its
// Describe() calls DescribeLinks first and DescribeVerifyReplicas / DescribeStorage last, around
// its own keys (the order of `commsim list`, `--resolved` and the docs tables).
#ifndef COMMSIM_ALGORITHMS_PS_PS_KEYS_H_
#define COMMSIM_ALGORITHMS_PS_PS_KEYS_H_

#include <string>
#include <string_view>

#include "base/params.h"

namespace commsim {

struct PsLinkKeys {
  // The two links' default compressors, by registry name.
  PsLinkKeys(std::string_view uplink_compressor, std::string_view downlink_compressor);

  ComponentSpec uplink;
  ComponentSpec downlink;
  bool verify_replicas = false;

  void DescribeLinks(ParamVisitor& v);
  // `help` replaces the generic help text when the rule's stored-once copy has its own name.
  void DescribeVerifyReplicas(ParamVisitor& v, std::string_view help = {});
};

struct PsStateKeys : PsLinkKeys {
  using PsLinkKeys::PsLinkKeys;

  std::string precision = "float64";  // of the per-worker state: "float64" or "float32"

  // True for "float32". REQUIRES: precision is one of the choices DescribeStorage declares (the
  // scenario parser checks it).
  bool single() const;
  // `verify_replicas` (with `verify_help`, as DescribeVerifyReplicas) then `precision`.
  void DescribeStorage(ParamVisitor& v, std::string_view verify_help = {});
};

}  // namespace commsim

#endif  // COMMSIM_ALGORITHMS_PS_PS_KEYS_H_
