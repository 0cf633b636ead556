// The Cubism 2 .mtn reader (src/import/cubism2/mtn_file.hpp) on hand-written motions: the
// runtime's grammar, its frame-rate rule, line endings of every kind, and the runtime's
// defects read past with a note (LF endings after $fps) or refused with a reason (letters).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "import/cubism2/mtn_file.hpp"

namespace {

using namespace p2l::cubism2;

Mtn read(const std::string& text) {
  Mtn out;
  p2l::Error error;
  EXPECT_TRUE(read_mtn(text, out, error)) << error.to_string();
  return out;
}

std::string refusal(const std::string& text) {
  Mtn out;
  p2l::Error error;
  return read_mtn(text, out, error) ? "read" : error.message;
}

TEST(MtnFile, CurvesAndTheirKinds) {
  const Mtn m = read("# Live2D Animator Motion Data\r\n$fps=24\r\n\r\nPARAM_ANGLE_X=0,1.5,-3,.5,2.\r\n"
                     "VISIBLE:PARTS_01_ARM_L=1,1,0\r\nLAYOUT:SCALE_X=1\r\n_PARAM=7 8\t9\r\n");
  EXPECT_EQ(m.fps, 24.0f);
  ASSERT_EQ(m.curves.size(), 4u);
  EXPECT_EQ(m.curves[0].id, "PARAM_ANGLE_X");
  EXPECT_EQ(m.curves[0].kind, CurveKind::Parameter);
  EXPECT_EQ(m.curves[0].values, (std::vector<float>{0, 1.5f, -3, 0.5f, 2}));
  EXPECT_EQ(m.curves[1].kind, CurveKind::Visible);
  EXPECT_EQ(m.curves[1].id, "PARTS_01_ARM_L");
  EXPECT_EQ(m.curves[2].kind, CurveKind::Layout);
  EXPECT_EQ(m.curves[2].id, "SCALE_X");
  EXPECT_EQ(m.curves[3].values, (std::vector<float>{7, 8, 9}));
  EXPECT_EQ(m.frames, 5u);                 // the longest curve
  EXPECT_EQ(m.duration_ms(), 208u);        // floor(1000 x 5 / 24)
  EXPECT_TRUE(m.notes.empty());
}

TEST(MtnFile, FrameRateOnlyBetween5And121) {
  EXPECT_EQ(read("$fps=60\nP=1\n\n").fps, 60.0f);
  EXPECT_EQ(read("$fps=5.5\r\nP=1\r\n").fps, 5.5f);
  for (const char* outside : {"$fps=5\r\nP=1\r\n", "$fps=121\r\nP=1\r\n", "$fps=-30\r\nP=1\r\n"}) {
    const Mtn m = read(outside);
    EXPECT_EQ(m.fps, 30.0f) << outside;
    ASSERT_EQ(m.notes.size(), 1u) << outside;
    EXPECT_NE(m.notes[0].find("outside 5 to 121"), std::string::npos);
  }
  EXPECT_EQ(read("$other=10\r\nP=1\r\n").fps, 30.0f);  // other settings are not read
  EXPECT_EQ(read("P=1,2,3\n").duration_ms(), 100u);     // 30 by default
}

TEST(MtnFile, EveryLineEnding) {
  const char* texts[] = {"$fps=30\r\nP=1,2\r\nQ=3\r\n", "$fps=30\r\r\nP=1,2\r\r\nQ=3\r\r\n", "$fps=30\rP=1,2\rQ=3\r",
                         "\xEF\xBB\xBF$fps=30\r\nP=1,2\r\nQ=3"};
  for (const char* text : texts) {
    const Mtn m = read(text);
    ASSERT_EQ(m.curves.size(), 2u) << text;
    EXPECT_EQ(m.curves[0].values, (std::vector<float>{1, 2}));
    EXPECT_EQ(m.curves[1].values, (std::vector<float>{3}));
    EXPECT_TRUE(m.notes.empty()) << m.notes[0];
  }
}

// The 2.1 runtime loses the curves after $fps when lines end in LF alone; p2lrt reads them
// and says so.
TEST(MtnFile, LfEndingsAfterFpsAreReadWithANote) {
  const Mtn m = read("# motion\n$fps=30\nPARAM_A=0,1,2\nPARAM_B=3,4\n");
  ASSERT_EQ(m.curves.size(), 2u);
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("loses their 2 curves"), std::string::npos) << m.notes[0];
  EXPECT_NE(m.notes[0].find("line 2"), std::string::npos) << m.notes[0];
  EXPECT_TRUE(read("PARAM_A=0,1\n").notes.empty());  // no $fps: nothing lost
}

TEST(MtnFile, LettersInValuesAreRefusedNamingLineAndColumn) {
  const std::string hang = refusal("$fps=30\r\nPARAM_A=0,1\r\nPARAM_B=0,1e-3,2\r\n");
  EXPECT_NE(hang.find("line 3"), std::string::npos) << hang;
  EXPECT_NE(hang.find("column 4"), std::string::npos) << hang;
  EXPECT_NE(hang.find("hangs the Cubism 2.1 runtime"), std::string::npos) << hang;
  EXPECT_NE(refusal("P=1,x,2\r\n").find("'x,2'"), std::string::npos);
  EXPECT_NE(refusal("P=1,-,2\r\n").find("not a number"), std::string::npos);
  EXPECT_NE(refusal("P=+1\r\n").find("not a number"), std::string::npos);
  EXPECT_NE(refusal("P=1..2\r\n").find("not a number"), std::string::npos);
  EXPECT_NE(refusal("P=1" + std::string(60, '0') + "\r\n").find("too large"), std::string::npos);
}

TEST(MtnFile, OtherLinesAreSkippedWithANote) {
  const Mtn m = read("$fps=30\r\nNO_EQUALS_SIGN\r\n 1,2,3\r\n9=1\r\nP=1\r\n");
  ASSERT_EQ(m.curves.size(), 1u);
  ASSERT_EQ(m.notes.size(), 3u);
  EXPECT_NE(m.notes[0].find("line 2 names no curve"), std::string::npos) << m.notes[0];
  EXPECT_NE(m.notes[1].find("line 3 is neither"), std::string::npos) << m.notes[1];
}

TEST(MtnFile, Bounds) {
  std::string big = "P=";
  for (std::size_t i = 0; i < kMaxMtnValues + 1; ++i) big += "1,";
  EXPECT_NE(refusal(big).find("more than"), std::string::npos);
  EXPECT_NE(refusal(std::string(kMaxMtnBytes + 1, '#')).find("32 MiB"), std::string::npos);
  EXPECT_NE(refusal(std::string(2000, 'A') + "=1").find("curve id of 2000 bytes"), std::string::npos);
}

// Every prefix of a motion reads or is refused (a cut number is still a number).
TEST(MtnFile, EveryPrefixReadsOrIsRefused) {
  const std::string text = "# m\r\n$fps=30\r\nPARAM_ANGLE_X=0,1.5,-3\r\nVISIBLE:P=1,0\r\nLAYOUT:X=0.25\r\n";
  for (std::size_t n = 0; n <= text.size(); ++n) {
    Mtn out;
    p2l::Error error;
    if (!read_mtn(text.substr(0, n), out, error)) EXPECT_FALSE(error.message.empty()) << n;
  }
}

}  // namespace
