#include "sim/network_model.h"

#include <mutex>
#include <stdexcept>

#include "sim/flow_network.h"
#include "sim/sim_network.h"
#include "sim/sim_transport.h"

namespace geotrain::sim {
namespace {

// ns-3's Simulator, its random streams and its node list are process-global.
std::mutex& ns3_simulator() {
  static std::mutex mu;
  return mu;
}

class PacketLevel : public NetworkModel {
 public:
  PacketLevel(const Scenario& sc, const Deployment& dep, Deliver deliver) : hold_(ns3_simulator()) {
    ns3::RngSeedManager::SetSeed(std::uint32_t(sc.seed % 4294967295u) + 1);  // ns-3 rejects seed 0
    ns3::RngSeedManager::SetRun(1);
    loop_ = make_ns3_event_loop();
    net_ = std::make_unique<SimNetwork>(sc, dep);
    transport_ = std::make_unique<SimTransport>(*net_, std::move(deliver));
  }
  ~PacketLevel() override {
    transport_.reset();
    net_.reset();
    ns3::Simulator::Destroy();  // the next run starts from a fresh simulator
  }
  EventLoop& loop() override { return *loop_; }
  Transport& transport() override { return *transport_; }
  NetCounters counters() const override { return net_->counters(); }
  nlohmann::json settings() const override { return net_->settings(); }
  nlohmann::json drops() const override { return net_->drops(); }

 private:
  std::unique_lock<std::mutex> hold_;
  std::unique_ptr<EventLoop> loop_;
  std::unique_ptr<SimNetwork> net_;
  std::unique_ptr<SimTransport> transport_;
};

class FlowLevel : public NetworkModel {
 public:
  FlowLevel(const Scenario& sc, const Deployment& dep, Deliver deliver)
      : loop_(make_own_event_loop()), net_(sc, dep, *loop_, std::move(deliver)) {}
  EventLoop& loop() override { return *loop_; }
  Transport& transport() override { return net_; }
  NetCounters counters() const override { return net_.counters(); }
  nlohmann::json settings() const override { return net_.settings(); }
  nlohmann::json drops() const override { return net_.drops(); }

 private:
  std::unique_ptr<EventLoop> loop_;
  FlowNetwork net_;
};

template <class Model>
std::unique_ptr<NetworkModel> make(const Scenario& sc, const Deployment& dep, NetworkModel::Deliver deliver) {
  return std::make_unique<Model>(sc, dep, std::move(deliver));
}

// One maker per name of core/config/network_models.h.
struct Maker {
  const char* name;
  std::unique_ptr<NetworkModel> (*make)(const Scenario&, const Deployment&, NetworkModel::Deliver);
};
constexpr Maker kMakers[] = {{"ns3", &make<PacketLevel>}, {"flow", &make<FlowLevel>}};

const Maker* find_maker(const std::string& name) {
  for (const Maker& m : kMakers)
    if (name == m.name) return &m;
  return nullptr;
}

}  // namespace

bool can_make_network_model(const std::string& name) { return find_maker(name) != nullptr; }

std::unique_ptr<NetworkModel> make_network_model(const Scenario& sc, const Deployment& dep,
                                                 NetworkModel::Deliver deliver) {
  if (const Maker* m = find_maker(sc.network.model)) return m->make(sc, dep, std::move(deliver));
  throw std::invalid_argument("no network model named \"" + sc.network.model + "\" (core/config/network_models.h)");
}

}  // namespace geotrain::sim
