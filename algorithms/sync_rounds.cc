#include "algorithms/sync_rounds.h"

#include <fmt/format.h>

#include <algorithm>
#include <new>
#include <string>
#include <utility>

#include "base/check.h"
#include "base/error.h"
#include "compression/compressors/compressor.h"
#include "models/objective.h"

namespace commsim {

int64_t EffectiveBatch(const RunSetup& setup, const Objective& objective, int worker) {
  const int64_t shard = objective.shard_size(worker);
  return setup.batch <= 0 ? shard : std::min(setup.batch, shard);
}

void EvaluateModel(const Objective& objective, const Eigen::VectorXd& x, IterationRecord& r) {
  r.loss = objective.Loss(x);
  if (const Optimum* opt = objective.optimum()) r.dist_to_opt_sq = (x - opt->x).squaredNorm();
  r.test_accuracy = objective.TestAccuracy(x);
}

void WorkerGradient(const RunSetup& setup, int worker, const Eigen::Ref<const Eigen::VectorXd>& x,
                    Rng& batch_rng, Eigen::Ref<Eigen::VectorXd> grad) {
  const Objective& objective = *setup.objective;
  if (!objective.FiniteGradient(worker, x, EffectiveBatch(setup, objective, worker), batch_rng,
                                grad)) {
    throw NonFiniteError(fmt::format("worker {}'s gradient has a non-finite value", worker));
  }
}

int RunThreads(const RunSetup& setup, int parties) {
  COMMSIM_CHECK(setup.threads >= 1, "RunSetup::threads must be >= 1, got {}", setup.threads);
  return std::max(1, std::min(setup.threads, parties));
}

void CheckThreadsForCodec(const RunSetup& setup) {
  if (setup.threads > 1 && setup.codec.mode == CodecMode::kMeasured) {
    throw UserError(fmt::format(
        "codec mode \"measured\" times every encode in wall time, which encodes running in "
        "parallel would distort; run it with --threads 1 (got --threads {})",
        setup.threads));
  }
}

SyncRounds::SyncRounds(const RunSetup& setup, Engine& engine, RunRecorder& recorder,
                       RunRecorder::Evaluate evaluate, int parties, Hooks hooks)
    : setup_(setup),
      engine_(engine),
      recorder_(recorder),
      evaluate_(std::move(evaluate)),
      parties_(parties),
      hooks_(std::move(hooks)) {
  COMMSIM_CHECK(parties >= 1 && hooks_.start, "SyncRounds needs parties and a start hook");
}

void SyncRounds::Run() {
  try {
    if (setup_.iterations > 0 && !recorder_.stopped()) Start(1);
    engine_.Run();
  } catch (const NonFiniteError& e) {
    Stop(kStatusDiverged, e.what());
  } catch (const std::bad_alloc&) {
    Stop(kStatusError, "out of memory");
  } catch (const std::exception& e) {
    Stop(kStatusError, e.what());
  }
  COMMSIM_CHECK(recorder_.stopped() || round_ == setup_.iterations || setup_.iterations <= 0,
                "the engine ran dry in round {} with {} of {} parties done", round_, done_,
                parties_);
}

void SyncRounds::Start(int64_t k) {
  round_ = k;
  done_ = 0;
  timing_ = IterationTiming{};
  timing_.start = engine_.Now();
  hooks_.start(k);
}

void SyncRounds::PartyDone(SimTime codec_on_path) {
  if (++done_ < parties_) return;
  timing_.end = engine_.Now();
  timing_.codec = codec_on_path;
  if (hooks_.end_check) hooks_.end_check();
  const bool go_on = recorder_.EndIteration(round_, timing_, evaluate_);
  if (go_on && round_ < setup_.iterations) Start(round_ + 1);
}

void SyncRounds::Stop(const char* status, const std::string& message) {
  timing_.end = engine_.Now();
  recorder_.Stop(round_, timing_, status, message, evaluate_);
}

}  // namespace commsim
