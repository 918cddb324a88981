// simgrid_net CASE.json [--cfg=...]: runs a validation case in SimGrid (S4U) and prints its flows.
//
// Model: CM02 flow-level max-min sharing without correction factors: bandwidth and latency
// factors 1, weight-S 0, no TCP window bound (TCP-gamma 0), no cross-traffic (ACK) flows on
// the reverse route. A flow of S bytes over a route with total latency L then completes at
// L + S / rate, its rate being recomputed whenever a flow starts or ends. Note: with weight-S 0,
// CM02 weights each flow's share by 1 / L (flows with a longer route get less of a shared link),
// which is plain max-min only when the competing flows have equal route latencies.
// Platform: one host per case host; every directed commsim link is its own SimGrid link, and
// each host pair gets the route the case's links give it (see net_case.h), so switches need no
// SimGrid object. Multicast (broadcast patterns): the links leading away from the server are
// FATPIPE, i.e. each copy gets the link's full bandwidth, which is what one copy replicated at
// the switch costs at flow level. Flows are host-to-host comms (Comm::sendto_async) started and
// awaited by one driver actor. Extra --cfg options are passed to SimGrid after the defaults.
#include <cstdio>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>
// After s4u.hpp, which defines the macros it uses.
#include <simgrid/version.h>

#include "net_case.h"
#include "pattern_driver.h"

namespace sg4 = simgrid::s4u;

namespace validation {
namespace {

class SimgridTransport final : public Transport {
 public:
  explicit SimgridTransport(std::vector<sg4::Host*> hosts) : hosts_(std::move(hosts)) {}
  double NowS() const override { return sg4::Engine::get_clock(); }
  void Start(int id, int src, const std::vector<int>& dsts, uint64_t bytes) override {
    for (int dst : dsts) {
      comms_.push_back(sg4::Comm::sendto_async(hosts_[static_cast<size_t>(src)],
                                               hosts_[static_cast<size_t>(dst)], bytes));
      keys_.emplace_back(id, dst);
    }
  }
  // Waits for flows until none is left, reporting each delivery to the driver.
  void Drain(PatternDriver& driver) {
    while (!comms_.empty()) {
      const auto i = static_cast<size_t>(sg4::Comm::wait_any(comms_));
      const auto [id, dst] = keys_[i];
      comms_.erase(comms_.begin() + static_cast<std::ptrdiff_t>(i));
      keys_.erase(keys_.begin() + static_cast<std::ptrdiff_t>(i));
      driver.Delivered(id, dst);
    }
  }

 private:
  std::vector<sg4::Host*> hosts_;
  std::vector<sg4::CommPtr> comms_;
  std::vector<std::pair<int, int>> keys_;
};

std::vector<sg4::Host*> BuildPlatform(const NetCase& net, bool multicast) {
  auto* zone = sg4::create_full_zone("net");
  std::vector<sg4::Host*> hosts;
  for (int h = 0; h < net.hosts; ++h) {
    hosts.push_back(zone->create_host("h" + std::to_string(h), 1e9)->seal());
  }
  const std::vector<int> hops_to_server =
      net.server >= 0 ? HopsTo(net, net.server) : std::vector<int>();
  std::vector<sg4::Link*> links;
  for (int link = 0; link < 2 * static_cast<int>(net.edges.size()); ++link) {
    const Edge& e = net.edge_of_link(link);
    // SimGrid bandwidths are in bytes per second.
    auto* l = zone->create_link("l" + std::to_string(link), e.bandwidth_bps / 8.0)
                  ->set_latency(e.latency_s);
    const bool outward = multicast && hops_to_server[static_cast<size_t>(net.link_to(link))] >
                                          hops_to_server[static_cast<size_t>(net.link_from(link))];
    l->set_sharing_policy(outward ? sg4::Link::SharingPolicy::FATPIPE
                                  : sg4::Link::SharingPolicy::SHARED);
    links.push_back(l->seal());
  }
  for (int src = 0; src < net.hosts; ++src) {
    for (int dst = 0; dst < net.hosts; ++dst) {
      if (src == dst) continue;
      std::vector<sg4::LinkInRoute> route;
      for (int link : Route(net, src, dst)) route.emplace_back(links[static_cast<size_t>(link)]);
      zone->add_route(hosts[static_cast<size_t>(src)]->get_netpoint(),
                      hosts[static_cast<size_t>(dst)]->get_netpoint(), nullptr, nullptr, route,
                      false);
    }
  }
  zone->seal();
  return hosts;
}

int Run(int argc, char** argv) {
  // Defaults first, so that --cfg options given on the command line override them.
  std::vector<std::string> args = {argv[0],
                                   "--cfg=network/model:CM02",
                                   "--cfg=network/latency-factor:1",
                                   "--cfg=network/bandwidth-factor:1",
                                   "--cfg=network/weight-S:0",
                                   "--cfg=network/TCP-gamma:0",
                                   "--cfg=network/crosstraffic:0",
                                   "--cfg=surf/precision:1e-9",
                                   "--log=root.thres:warning"};
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  std::vector<char*> raw;
  for (std::string& a : args) raw.push_back(a.data());
  int raw_argc = static_cast<int>(raw.size());
  sg4::Engine engine(&raw_argc, raw.data());
  if (raw_argc != 2) {
    std::fprintf(stderr, "usage: simgrid_net CASE.json [--cfg=key:value ...]\n");
    return 64;
  }
  const NetCase net = LoadNetCase(raw[1]);
  SimgridTransport transport(
      BuildPlatform(net, net.pattern == "broadcast" || net.pattern == "ps_round_multicast"));
  PatternDriver driver(net, transport);
  sg4::Actor::create("driver", sg4::Host::by_name("h0"), [&] {
    driver.Begin();
    transport.Drain(driver);
  });
  engine.run();
  std::printf("# simgrid %s: CM02, no correction factors, no TCP-gamma, no cross-traffic\n",
              SIMGRID_VERSION_STRING);
  return driver.Print(stdout) ? 0 : 2;
}

}  // namespace
}  // namespace validation

int main(int argc, char** argv) { return validation::MainWithErrors(argc, argv, validation::Run); }
