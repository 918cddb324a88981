// Runs a NetSpec (the work of `commsim net`) and formats its report.
//
// The report lists every message (id, phase, source, destination, bits, send and delivery times)
// in send order, then every link that carried traffic (or all links) with its counters and its
// utilisation = busy time / end time, then a summary line. Times print in seconds with 12
// significant digits (picosecond resolution up to 1 s). Same spec -> byte-identical report.
#ifndef COMMSIM_SCENARIOS_NET_RUN_H_
#define COMMSIM_SCENARIOS_NET_RUN_H_

#include <string>
#include <vector>

#include "scenarios/net_spec.h"
#include "sim/network.h"
#include "sim/topology.h"
#include "sim/traffic.h"

namespace commsim {

struct NetReport {
  Topology topology;
  std::vector<MessageRecord> messages;
  std::vector<LinkStats> links;  // indexed by link id
  SimTime end;
  int64_t bits_sent = 0;
  uint64_t events = 0;
};

NetReport RunNetSpec(const NetSpec& spec);
std::string FormatNetReport(const NetSpec& spec, const NetReport& report, bool all_links);

}  // namespace commsim

#endif  // COMMSIM_SCENARIOS_NET_RUN_H_
