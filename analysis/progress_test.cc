#include "analysis/progress.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace commsim {
namespace {

// Captures what a Progress prints, with a clock the test moves.
struct Capture {
  Capture() { out = open_memstream(&buffer, &size); }
  ~Capture() {
    std::fclose(out);
    std::free(buffer);
  }
  std::string Text() {
    std::fflush(out);
    return std::string(buffer, size);
  }
  char* buffer = nullptr;
  size_t size = 0;
  std::FILE* out = nullptr;
  double now_s = 100;
  Progress::Clock clock() {
    return [this] { return now_s; };
  }
};

TEST(ProgressTest, EtaExtrapolatesThisSessionsRateOverTheRemainingSteps) {
  Capture c;
  Progress p("sweep", "points", c.out, Progress::Mode::kQuiet, c.clock());
  p.Start(13, 3);
  EXPECT_EQ(p.Status(), "sweep: 3/13 points (23%), elapsed 0.0s");
  c.now_s += 20;
  p.Advance(2);  // 10 s per point in this session, 8 points left
  EXPECT_EQ(p.Status(), "sweep: 5/13 points (38%), elapsed 20s, ETA 1m20s");
  p.Advance(8);
  EXPECT_EQ(p.Status(), "sweep: 13/13 points (100%), elapsed 20s");
  p.Finish();
  EXPECT_EQ(c.Text(), "");  // quiet
}

TEST(ProgressTest, LinesModePrintsAtStartEveryIntervalAndAtFinish) {
  Capture c;
  Progress p("sweep", "points", c.out, Progress::Mode::kLines, c.clock(), 10.0);
  p.Start(4);
  c.now_s += 4;
  p.Advance();  // too soon for a line
  c.now_s += 7;
  p.Advance();  // 11 s since the last line
  c.now_s += 1;
  p.Advance();
  p.Advance();
  p.Finish();
  p.Finish();  // once only
  EXPECT_EQ(c.Text(),
            "sweep: 4 points\n"
            "sweep: 2/4 points (50%), elapsed 11s, ETA 11s\n"
            "sweep: 4/4 points (100%), elapsed 12s\n");
}

TEST(ProgressTest, TerminalModeRewritesOneLine) {
  Capture c;
  Progress p("run", "entries", c.out, Progress::Mode::kTerminal, c.clock());
  p.Start(2);
  c.now_s += 1;
  p.Advance();
  p.Advance();
  p.Finish();
  EXPECT_EQ(c.Text(),
            "\rrun: 0/2 entries (0%), elapsed 0.0s\x1b[K"
            "\rrun: 1/2 entries (50%), elapsed 1.0s, ETA 1.0s\x1b[K"
            "\rrun: 2/2 entries (100%), elapsed 1.0s\x1b[K"
            "\rrun: 2/2 entries (100%), elapsed 1.0s\x1b[K\n");
}

TEST(ProgressTest, BackgroundTicksRefreshTheLineWhileAStepRuns) {
  Capture c;
  {
    Progress p("sweep", "points", c.out, Progress::Mode::kTerminal, Progress::SteadyClock(), 10.0,
               /*tick_s=*/0.005);
    p.Start(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    p.Finish();
  }
  const std::string text = c.Text();
  // Start, at least one tick, and the final line.
  EXPECT_GE(std::count(text.begin(), text.end(), '\r'), 3) << text;
  EXPECT_EQ(text.back(), '\n');
}

// A sweep of one long point: the point's own progress moves the percentage and the ETA.
TEST(ProgressTest, PartialProgressOfAStepInFlightCounts) {
  Capture c;
  Progress p("sweep", "points", c.out, Progress::Mode::kQuiet, c.clock());
  p.Start(1);
  c.now_s += 36;
  p.SetPartial(0.45);  // 36 s for 45%: 44 s for the remaining 55%
  EXPECT_EQ(p.Status(), "sweep: 0/1 points (45%), elapsed 36s, ETA 44s");
  p.SetPartial(7.0);  // clamped to the whole step
  EXPECT_EQ(p.Status(), "sweep: 0/1 points (100%), elapsed 36s, ETA 0.0s");
  p.Advance();  // the step is done: its partial progress is no longer counted twice
  EXPECT_EQ(p.Status(), "sweep: 1/1 points (100%), elapsed 36s");
}

// A long step says what it is doing after the status until its thread advances.
TEST(ProgressTest, ADetailFollowsTheStatusUntilTheStepEnds) {
  Capture c;
  Progress p("run", "entries", c.out, Progress::Mode::kQuiet, c.clock());
  p.Start(2);
  p.SetDetail(EventsDetail("sgd", 3'145'728, 0.4217));
  EXPECT_EQ(p.Status(),
            "run: 0/2 entries (0%), elapsed 0.0s | sgd: 3.1M events, simulated 0.422 s");
  p.SetDetail(EventsDetail("sgd", 2'500'000'000, 12.5));  // replaces the thread's detail
  EXPECT_EQ(p.Status(), "run: 0/2 entries (0%), elapsed 0.0s | sgd: 2.5G events, simulated 12.5 s");
  p.Advance();
  EXPECT_EQ(p.Status(), "run: 1/2 entries (50%), elapsed 0.0s, ETA 0.0s");
  EXPECT_EQ(EventsDetail("d", 999, 0), "d: 999 events, simulated 0 s");
  EXPECT_EQ(EventsDetail("d", 1500, 1e-6), "d: 1.5k events, simulated 1e-06 s");
}

TEST(ProgressTest, NotesPrintAboveTheStatusLine) {
  Capture c;
  Progress p("run", "entries", c.out, Progress::Mode::kTerminal, c.clock());
  p.Start(2);
  p.Note("  [1/2] sgd finished (ok)");
  EXPECT_EQ(c.Text(),
            "\rrun: 0/2 entries (0%), elapsed 0.0s\x1b[K"
            "\r  [1/2] sgd finished (ok)\x1b[K\n"
            "\rrun: 0/2 entries (0%), elapsed 0.0s\x1b[K");
  p.Finish();
  Capture q;
  Progress quiet("run", "entries", q.out, Progress::Mode::kQuiet, q.clock());
  quiet.Note("nothing");
  EXPECT_EQ(q.Text(), "");
}

TEST(ProgressTest, DurationsAndModeSelection) {
  EXPECT_EQ(FormatDuration(0.42), "0.4s");
  EXPECT_EQ(FormatDuration(59.4), "59s");
  EXPECT_EQ(FormatDuration(185), "3m05s");
  EXPECT_EQ(FormatDuration(7620), "2h07m");
  Capture c;
  EXPECT_EQ(Progress::ModeFor(c.out, true), Progress::Mode::kQuiet);
  EXPECT_EQ(Progress::ModeFor(c.out, false), Progress::Mode::kLines);  // not a terminal
}

}  // namespace
}  // namespace commsim
