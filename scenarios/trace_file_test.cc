// Trace files: what TraceText writes reads back to the same trajectories, value for value, and a
// damaged trace is refused with its line and what was expected.
#include "scenarios/trace_file.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "base/error.h"
#include "scenarios/trajectory_reuse.h"

namespace commsim {
namespace {

Message Msg(int64_t bits, std::string_view codec, int64_t elements, int64_t nonzeros) {
  return Message{.payload_bits = bits, .codec = codec, .elements = elements, .nonzeros = nonzeros};
}

// Round 1..3: two uplinks and a downlink; rounds 1 and 2 equal (one `rounds 2` line).
std::shared_ptr<const Trajectory> Sample() {
  auto t = std::make_shared<Trajectory>();
  Message parted = Msg(300, "top_k", 50, 5);
  parted.parts = {Msg(100, "top_k", 20, 2), Msg(200, "top_k", 30, 3)};
  for (int64_t k = 1; k <= 3; ++k) {
    t->AddMessage(k, 0, Msg(k == 3 ? 77 : 64, "qsgd", 10, -1));
    t->AddMessage(k, 1, parted);
    t->AddMessage(k, 2, Msg(640, "", 10, -1));
  }
  std::vector<IterationRecord> records(2);
  records[0].iteration = 0;
  records[0].loss = 0.1 + 0.2;  // not a short decimal: must come back bit for bit
  records[0].dist_to_opt_sq = 1e-300;
  records[1].iteration = 3;
  records[1].loss = std::numeric_limits<double>::infinity();
  records[1].test_accuracy = 0.5;
  records[1].extra = {{"residual", -2.5}, {"z", std::nan("")}};
  records[1].sim_time_s = 9;  // timing: not kept
  t->SetLearning(records);
  return t;
}

std::string SampleText() {
  TrajectoryStore store;
  store.Publish(1, Sample());
  return TraceText({{"name", "x"}}, "/data dir", {"a", "b"}, store);
}

TEST(TraceFileTest, RoundTripKeepsShapesRoundsAndLearningExactly) {
  const std::string text = SampleText();
  EXPECT_NE(text.find("rounds 2 0 1 2\nrounds 1 3 1 2\n"), std::string::npos) << text;
  const TraceFile f = ParseTrace(text, "t.txt");
  EXPECT_EQ(f.base_dir, "/data dir");
  EXPECT_EQ(f.scenario, nlohmann::json({{"name", "x"}}));
  ASSERT_EQ(f.entries.size(), 1u);
  const TraceEntry& e = f.entries.at(1);
  EXPECT_EQ(e.label, "b");
  const std::shared_ptr<const Trajectory> want = Sample();
  EXPECT_EQ(e.trajectory.shapes(), want->shapes());
  EXPECT_EQ(e.trajectory.runs(), want->runs());
  EXPECT_EQ(e.trajectory.rounds(), 3);
  ASSERT_EQ(e.trajectory.learning().size(), 2u);
  const IterationRecord& r0 = e.trajectory.learning()[0];
  EXPECT_EQ(r0.loss, 0.1 + 0.2);
  EXPECT_EQ(r0.dist_to_opt_sq, 1e-300);
  EXPECT_FALSE(r0.test_accuracy.has_value());
  const IterationRecord& r1 = e.trajectory.learning()[1];
  EXPECT_EQ(r1.loss, std::numeric_limits<double>::infinity());
  EXPECT_EQ(r1.test_accuracy, 0.5);
  EXPECT_EQ(r1.extra.at("residual"), -2.5);
  EXPECT_TRUE(std::isnan(r1.extra.at("z")));
  EXPECT_EQ(r1.sim_time_s, 0);
  // The shapes replay as messages with the recorded parts.
  const Message m = e.trajectory.MessageAt(2, 1);
  ASSERT_EQ(m.parts.size(), 2u);
  EXPECT_EQ(m.parts[1].payload_bits, 200);
  EXPECT_EQ(m.codec, "top_k");
}

TEST(TraceFileTest, ReplayOfAMissingRoundOrIterationThrows) {
  const std::shared_ptr<const Trajectory> t = Sample();
  EXPECT_THROW(t->MessageAt(4, 0), std::runtime_error);
  EXPECT_THROW(t->MessageAt(1, 3), std::runtime_error);
  IterationRecord r;
  r.iteration = 2;
  EXPECT_THROW(t->FillLearning(r), std::runtime_error);
}

// The error for `text` with line `n` (1-based) replaced by `line`, resealed (ResealTrace) when
// the change is past the integrity line, so that the parser sees it.
std::string ErrorWithLine(int n, const std::string& line) {
  std::string text = SampleText();
  size_t start = 0;
  for (int i = 1; i < n; ++i) start = text.find('\n', start) + 1;
  text.replace(start, text.find('\n', start) - start, line);
  try {
    ParseTrace(n == 1 ? text : ResealTrace(text), "t.txt");
  } catch (const UserError& e) {
    return e.what();
  }
  return "no error";
}

// A damaged line of SampleText(): its number, its text, and the error it must give (after the
// file name and the line number).
struct DamagedLine {
  int line;
  const char* text;
  const char* error;
};

TEST(TraceFileTest, DamagedLinesAreRefusedWithTheLineAndWhatWasExpected) {
  // Line 5 is shape 0, lines 6-8 shape 1 and its parts, 9 shape 2, 10 shape 3, 11-12 the rounds,
  // 13-14 the records, 15 the end.
  const DamagedLine cases[] = {
      {1, "commsim-trace 3 bytes 1 crc32 00000000",
       "trace version \"3\" is not supported (this commsim reads version 2)"},
      {1, "commsim-trace 1",
       "trace version 1 has no checksum, so a damaged copy cannot be told from a good one, and "
       "this commsim reads version 2 only; write the trace again with `commsim run --trace`"},
      {1, "commsim-trace 2 bytes 012 crc32 00000000",
       "expected `commsim-trace 2 bytes <count> crc32 <8 hex digits>`, got \"commsim-trace 2 "
       "bytes 012 crc32 00000000\""},
      {1, "hello",
       "expected `commsim-trace 2 bytes <count> crc32 <hex>` (not a commsim trace "
       "file?)"},
      {3, "scenario [1]", "scenario: expected a JSON object on one line"},
      {5, "shape 0 64 gzip 10 -1 0", "codec: expected a compressor name or -, got \"gzip\""},
      {5, "shape 1 64 qsgd 10 -1 0", "expected shape id 0 (ids count up from 0), got 1"},
      {5, "shape 0 -64 qsgd 10 -1 0",
       "bits: expected an integer in [0, 2305843009213693951], got \"-64\""},
      {5, "shape 0 64 qsgd 10",
       "expected `shape <id> <bits> <codec> <elements> <nonzeros> <parts>` (7 fields), got 5 "
       "fields"},
      {7, "shape 9", "expected a `part` line, got \"shape\""},
      {11, "rounds 2 0 1 9", "slot: expected an integer in [0, 3], got \"9\""},
      {11, "rounds -2 0 1 2", "round count: expected an integer in [1, 1000000000000], got \"-2\""},
      {13, "record 0 x - - - -", "loss: expected a real number or -, got \"x\""},
      {14, "record 0 1 - - - -", "iteration 0 after iteration 0: expected increasing iterations"},
      {14, "record 3 1 - - - - residual", "expected <key>=<value>, got \"residual\""},
      {15, "end of it", "expected `end` (1 fields), got 3 fields"},
  };
  for (const DamagedLine& c : cases) {
    EXPECT_EQ(ErrorWithLine(c.line, c.text), fmt::format("t.txt:{}: {}", c.line, c.error))
        << c.text;
  }
}

// The error ParseTrace gives for `text` ("no error" when it parses).
std::string TraceErrorOf(const std::string& text) {
  try {
    ParseTrace(text, "t.txt");
  } catch (const UserError& e) {
    return e.what();
  }
  return "no error";
}

TEST(TraceFileTest, TheIntegrityLineCountsAndChecksumsTheRest) {
  const std::string text = SampleText();
  const std::string body = text.substr(text.find('\n') + 1);
  // zlib's crc32 of "123456789" is cbf43926 (the CRC-32 check value): the line uses that crc.
  EXPECT_EQ(TraceIntegrityLine("123456789"), "commsim-trace 2 bytes 9 crc32 cbf43926");
  EXPECT_EQ(text.substr(0, text.find('\n')), TraceIntegrityLine(body));
  EXPECT_EQ(text.find(fmt::format("commsim-trace 2 bytes {} crc32 ", body.size())), 0u);
}

TEST(TraceFileTest, AChangedCutOrExtendedTraceIsRefusedBeforeParsing) {
  const std::string text = SampleText();
  const size_t bytes = text.size() - text.find('\n') - 1;
  const std::string again = "; write the trace again with `commsim run --trace`";
  // One digit of the first record's loss changed: still a valid trace, but not the one written.
  std::string changed = text;
  const size_t loss = changed.find("record 0 0.30000000000000004");
  ASSERT_NE(loss, std::string::npos) << text;
  changed[loss + 9] = '1';
  EXPECT_EQ(
      TraceErrorOf(changed).rfind("t.txt: changed since commsim wrote it: its content's crc32 "
                                  "is ",
                                  0),
      0u)
      << TraceErrorOf(changed);
  EXPECT_EQ(TraceErrorOf(ResealTrace(changed)), "no error");  // only the checksum tells
  EXPECT_EQ(TraceErrorOf(text.substr(0, text.size() - 4)),
            fmt::format("t.txt: cut short: {} bytes after the first line, which says {}{}",
                        bytes - 4, bytes, again));
  EXPECT_EQ(TraceErrorOf(text + "end\n"),
            fmt::format("t.txt: extended: {} bytes after the first line, which says {}{}",
                        bytes + 4, bytes, again));
}

TEST(TraceFileTest, ATruncatedTraceSaysSo) {
  const std::string text = SampleText();
  const std::string cut = ResealTrace(text.substr(0, text.find("record 3")));
  try {
    ParseTrace(cut, "t.txt");
    FAIL() << "accepted a truncated trace";
  } catch (const UserError& e) {
    EXPECT_EQ(std::string(e.what()),
              "t.txt:13: expected `end`, got the end of the file (truncated?)");
  }
  EXPECT_THROW(ParseTrace("", "t.txt"), UserError);
  EXPECT_THROW(ParseTrace(ResealTrace(text + "more\n"), "t.txt"), UserError);
}

}  // namespace
}  // namespace commsim
