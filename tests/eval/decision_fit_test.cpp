// Fitting thresholds and weights of the exact decision, and the leave-one-group-out estimate,
// on hand-made match tables whose best values can be worked out on paper.
#include <gtest/gtest.h>

#include "eval/decision_fit.hpp"
#include "eval/rule_overlay.hpp"
#include "rules/decision.hpp"

namespace ghsift {
namespace {

RuleSet TwoRules() {
  RuleSet rules;
  rules.rules.push_back({"p.a", "performance/x", "performance", {}, "a", 3, {}, 1.0, "t"});
  rules.rules.push_back({"p.b", "performance/x", "performance", {}, "b", 3, {}, 0.5, "t"});
  return rules;
}

struct Labeled {
  std::string group;
  int label;
  std::vector<std::string> rules;
};

MatchTable Table(const RuleSet& rules, const std::vector<Labeled>& items, std::vector<GroupDefinition> groups) {
  std::vector<LabeledReport> reports;
  std::vector<ReportVerdict> verdicts;
  std::vector<int> report_group;
  for (const Labeled& item : items) {
    LabeledReport r;
    r.binary = item.label;
    reports.push_back(r);
    ReportVerdict v;
    v.rules = item.rules;
    verdicts.push_back(v);
    for (size_t g = 0; g < groups.size(); ++g) {
      if (groups[g].name == item.group) report_group.push_back(static_cast<int>(g));
    }
  }
  return BuildMatchTable(rules, reports, verdicts, groups, report_group);
}

// Group x: two positives only p.b (0.5) matched, a negative p.a (1.0) matched, one with nothing.
const std::vector<Labeled> kGroupX = {{"x", 1, {"p.b"}}, {"x", 1, {"p.b"}}, {"x", 0, {}}, {"x", 0, {"p.a"}}};

TEST(DecisionFitTest, ThresholdMovesToTheClosestBestValue) {
  const RuleSet rules = TwoRules();
  const MatchTable t = Table(rules, kGroupX, {{"x", {"performance"}, {}, true}});
  const DecisionParams written = t.ParamsOf(rules);
  FitOptions o;
  const DecisionParams fitted = FitDecision(t, written, {1}, o);
  // Any threshold in (0, 0.5] gives F1 0.8 (2 tp, 1 fp); the L1 cost picks 0.5, nearest to 1.0.
  EXPECT_EQ(fitted.threshold[0], 500000);
  EXPECT_EQ(fitted.weight, written.weight);
  EXPECT_NEAR(ScoreGroup(t, 0, fitted).confusion.f1(), 0.8, 1e-12);
}

TEST(DecisionFitTest, WeightsMoveOnlyWhereTheDataAsks) {
  const RuleSet rules = TwoRules();
  const MatchTable t = Table(rules, kGroupX, {{"x", {"performance"}, {}, true}});
  const DecisionParams written = t.ParamsOf(rules);
  FitOptions o;
  o.weights = true;
  const DecisionParams fitted = FitDecision(t, written, {1}, o);
  // Threshold 0.5 first; then p.a below it (0.45, the smallest change) unflags the negative.
  EXPECT_EQ(fitted.threshold[0], 500000);
  EXPECT_EQ(fitted.weight[0], 450000);
  EXPECT_EQ(fitted.weight[1], 500000);
  const Confusion c = ScoreGroup(t, 0, fitted).confusion;
  EXPECT_EQ(c.tp, 2);
  EXPECT_EQ(c.fp, 0);
  EXPECT_EQ(c.fn, 0);
  EXPECT_EQ(c.tn, 2);

  // The overlay holds exactly what moved, reads back as written, and applied to the rule set
  // gives the DecisionModel the same decisions as the fitted parameters.
  const RuleOverlay overlay = OverlayOf(t, written, fitted);
  EXPECT_EQ(overlay.weights, (std::map<std::string, double>{{"p.a", 0.45}}));
  EXPECT_EQ(overlay.thresholds, (std::map<std::string, double>{{"performance", 0.5}}));
  const std::string yaml = FormatOverlayYaml(overlay, "fitted on x");
  EXPECT_EQ(yaml,
            "# fitted on x\nrules:\n  - {id: p.a, weight: 0.45}\ncategories:\n  performance: {threshold: 0.50}\n");
  auto parsed = ParseOverlayYaml(yaml, "o.yaml");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(*parsed, overlay);
  RuleSet applied = rules;
  ASSERT_TRUE(ApplyOverlay(*parsed, applied).ok());
  const DecisionModel model = DecisionModel::FromRuleSet(applied);
  for (size_t i = 0; i < kGroupX.size(); ++i) {
    EXPECT_EQ(!model.Flagged(kGroupX[i].rules).empty(), t.Predicted(i, fitted)) << i;
  }
  RuleOverlay unknown;
  unknown.weights["p.nosuch"] = 1.0;
  const Status s = ApplyOverlay(unknown, applied);
  EXPECT_EQ(s.message(), "overlay: rule 'p.nosuch' is not in the rule set");
}

TEST(DecisionFitTest, LeaveOneGroupOutScoresEachGroupWithAFitThatNeverSawIt) {
  const RuleSet rules = TwoRules();
  std::vector<Labeled> items = kGroupX;
  items.push_back({"y", 1, {"p.a"}});
  items.push_back({"y", 0, {"p.b"}});
  const MatchTable t = Table(rules, items, {{"x", {"performance"}, {}, true}, {"y", {"performance"}, {}, true}});
  const DecisionParams written = t.ParamsOf(rules);
  const Estimates e = EstimateGroups(t, written, FitOptions());
  // Fitted on both: threshold 0.5 (x 0.8 + y 0.667) beats 1.0 (x 0 + y 1).
  EXPECT_EQ(e.fitted.threshold[0], 500000);
  // x held out: y alone is perfect at 1.0, so 1.0 stays and x gets no true positive.
  const Confusion& x = e.groups[0].held_out.confusion;
  EXPECT_EQ(std::vector<int64_t>({x.tp, x.fp, x.fn, x.tn}), std::vector<int64_t>({0, 1, 2, 1}));
  // y held out: x alone asks for 0.5, which flags y's negative.
  const Confusion& y = e.groups[1].held_out.confusion;
  EXPECT_EQ(std::vector<int64_t>({y.tp, y.fp, y.fn, y.tn}), std::vector<int64_t>({1, 1, 0, 0}));
  EXPECT_NEAR(e.groups[1].in_sample.confusion.f1(), 2.0 / 3.0, 1e-12);
  EXPECT_NEAR(e.groups[1].written.confusion.f1(), 1.0, 1e-12);
}

// A rule read from a group's reports is no evidence on that group: its held-out score is taken
// without the rule, while the other groups' folds, the in-sample fit and the rules as written
// keep it.
TEST(DecisionFitTest, ARuleWrittenFromAGroupIsLeftOutOfItsHeldOutScore) {
  RuleSet rules = TwoRules();
  rules.rules[1].written_from = {"x"};  // p.b, which finds x's positives
  std::vector<Labeled> items = kGroupX;
  items.push_back({"y", 1, {"p.a"}});
  items.push_back({"y", 0, {"p.b"}});
  const MatchTable t = Table(rules, items, {{"x", {"performance"}, {}, true}, {"y", {"performance"}, {}, true}});
  EXPECT_EQ(t.RulesWrittenFrom(0), 1u);
  EXPECT_EQ(t.RulesWrittenFrom(1), 0u);
  const Estimates e = EstimateGroups(t, t.ParamsOf(rules), FitOptions());
  // x held out: without p.b only its negative (p.a) can be flagged.
  const Confusion& x = e.groups[0].held_out.confusion;
  EXPECT_EQ(std::vector<int64_t>({x.tp, x.fp, x.fn, x.tn}), std::vector<int64_t>({0, 1, 2, 1}));
  // y held out: fitted on x, where p.b counts (threshold 0.5), so y's negative is flagged as before.
  const Confusion& y = e.groups[1].held_out.confusion;
  EXPECT_EQ(std::vector<int64_t>({y.tp, y.fp, y.fn, y.tn}), std::vector<int64_t>({1, 1, 0, 0}));
  // In-sample, x keeps p.b: 2 true positives.
  EXPECT_EQ(e.groups[0].in_sample.confusion.tp, 2);
}

TEST(DecisionFitTest, ControlRateCapsTheFit) {
  RuleSet rules = TwoRules();
  rules.rules.push_back({"s.a", "silent/x", "silent", {}, "s", 3, {}, 0.5, "t"});
  // Group s: the silent positive matched only s.a (0.5); group c (a control for silent): two of
  // four reports match s.a. Lowering silent's threshold to 0.5 would find s's positive but flag
  // half of c, over the 15% the control allows: the fit keeps 1.0.
  const std::vector<Labeled> items = {{"s", 1, {"s.a"}}, {"s", 0, {}},       {"c", 0, {"s.a"}},
                                      {"c", 0, {"s.a"}}, {"c", 0, {}},        {"c", 0, {}}};
  const MatchTable t = Table(rules, items, {{"s", {"silent"}, {}, true}, {"c", {"performance"}, {"silent"}, false}});
  const DecisionParams written = t.ParamsOf(rules);
  const DecisionParams fitted = FitDecision(t, written, {1, 1}, FitOptions());
  EXPECT_EQ(fitted.threshold[static_cast<size_t>(t.CategoryIndex("silent"))], 1000000);
  const DecisionParams without_control = FitDecision(t, written, {1, 0}, FitOptions());
  EXPECT_EQ(without_control.threshold[static_cast<size_t>(t.CategoryIndex("silent"))], 500000);
  EXPECT_DOUBLE_EQ(ScoreGroup(t, 1, without_control).ControlRate(0), 0.5);
}

}  // namespace
}  // namespace ghsift

namespace ghsift {
namespace {

// A group whose label means "speaks of performance AND is a bug": a report flagged performance
// but judged not a bug (the verdict category reaches its threshold) is predicted negative, and
// fitting may move the verdict threshold for such groups.
TEST(DecisionFitTest, BugOnlyGroupsNeedTheVerdictToo) {
  RuleSet rules;
  ASSERT_TRUE(ParseRuleYaml("categories:\n  verdict: {threshold: 1.0, verdict: true}\n"
                            "rules:\n  - {id: p.slow, tag: performance/x, pattern: slow}\n"
                            "  - {id: v.how, tag: verdict/question, pattern: how, weight: 0.5}\n",
                            "t.yaml", rules)
                  .ok());
  // Three questions about speed that are no bugs, one that is, and a speed bug.
  const std::vector<Labeled> items = {{"x", 0, {"p.slow", "v.how"}},
                                      {"x", 0, {"p.slow", "v.how"}},
                                      {"x", 0, {"p.slow", "v.how"}},
                                      {"x", 1, {"p.slow", "v.how"}},
                                      {"x", 1, {"p.slow"}},
                                      {"x", 0, {}}};
  const MatchTable topic = Table(rules, items, {{"x", {"performance"}, {}, true, false}});
  const MatchTable bug = Table(rules, items, {{"x", {"performance"}, {}, true, true}});
  ASSERT_GE(bug.verdict, 0);
  const DecisionParams written = bug.ParamsOf(rules);
  // As written, 0.5 does not reach the verdict's 1.0: every speed report is a bug.
  EXPECT_EQ(ScoreGroup(topic, 0, written).confusion.fp, 3);
  EXPECT_EQ(ScoreGroup(bug, 0, written).confusion.fp, 3);
  // Fitted, the verdict threshold comes down to 0.5 (F1 0.667 against 0.571): the questions are
  // not bugs, at the cost of the one that is.
  const DecisionParams fitted = FitDecision(bug, written, {1}, FitOptions{});
  EXPECT_EQ(fitted.threshold[static_cast<size_t>(bug.verdict)], 500000);
  const Confusion c = ScoreGroup(bug, 0, fitted).confusion;
  EXPECT_EQ(c.tp, 1);
  EXPECT_EQ(c.fp, 0);
  EXPECT_EQ(c.fn, 1);
  EXPECT_EQ(c.tn, 4);
}

}  // namespace
}  // namespace ghsift
