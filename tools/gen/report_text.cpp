#include "gen/report_text.hpp"

#include "gen/markdown_builder.hpp"
#include "gen/text_vocab.hpp"

namespace ghsift::gen {

namespace {

// ---- titles -------------------------------------------------------------------------------

const char* const kIssueTitles[4][10] = {
    {"Add support for {feature} in {api}", "[Feature Request] {feature} support", "Docs: example for `{api}` is outdated",
     "Build fails on {os} with GCC 13", "Segfault in {api} with an empty input", "ImportError after upgrading to {ver}",
     "Question: how to {task}?", "`{api}` raises TypeError when `{param}` is None", "Typo in the {api} docstring",
     "pip install fails on Python 3.12"},
    {"Training is {n}x slower after upgrading to {ver}", "Memory leak in {api} when called in a loop",
     "CUDA OOM with batch size {m} on {dev}", "{api} hangs forever on {dev}", "Low GPU utilization ({p}%) with {api}",
     "Inference latency regression between {ver2} and {ver}", "High CPU usage and slow data loading with {api}",
     "{api} is {n}x slower than in {ver2}", "Process memory grows until OOM with {model}", "Deadlock in {api} with num_workers > 0"},
    {"Accuracy drops from {a}% to {b}% after upgrading to {ver}", "NaN loss when training {model} with {opt}",
     "{api} returns wrong results for large inputs", "Non-deterministic results from {api} on {dev} even with fixed seed",
     "Validation accuracy stuck at {b}% with {model}", "Gradient of {api} is incorrect compared to finite differences",
     "Loss explodes to inf with {opt} in {ver}", "{api} gives different results on CPU and GPU",
     "Wrong result from {api} with float16", "Model converges much worse in {ver} than in {ver2}"},
    {"{api} silently ignores the `{param}` argument", "Wrong output shape from {api} without any error",
     "Saved model reloads with different weights", "{api} quietly casts float64 to float32",
     "`{param}` has no effect in {api} and no warning is raised", "Loading a checkpoint skips missing keys without warning",
     "{api} drops the last batch silently", "Exported model produces different outputs with no error",
     "`{param}` is overwritten silently when calling {api}", "{api} returns an empty result instead of raising"},
};

const char* const kPrTitles[4][5] = {
    {"Fix typo in {api} docs", "Add {feature} support to {api}", "[CI] Bump actions/checkout to v4",
     "Refactor {api} tests", "Remove deprecated `{param}` argument"},
    {"Speed up {api} on {dev}", "Fix memory leak in {api}", "Avoid an extra copy in {api}",
     "Use a faster kernel for {api}", "Reduce peak memory of {api}"},
    {"Fix NaN in {api} backward", "Fix numerical precision of {api}", "Make {api} deterministic",
     "Fix wrong result of {api} for large inputs", "Use float32 accumulation in {api}"},
    {"Raise an error when `{param}` is ignored in {api}", "Fix shape mismatch in {api} output",
     "Warn when {api} drops the last batch", "Restore weights exactly in {api}", "Validate `{param}` in {api}"},
};

// ---- body prose -----------------------------------------------------------------------------

const char* const kProse[4][6] = {
    {"I'm trying to {task} with {product} {ver} but I can't find how in the docs.",
     "When calling `{api}` with an empty tensor the process crashes with a segmentation fault.",
     "It would be great if `{api}` supported {feature}. Right now we work around it by hand, which is a bit {word}.",
     "The documentation of `{api}` mentions the `{param}` argument, but it does not exist anymore in {ver}.",
     "Building from source on {os} fails with the error below.",
     "I followed the installation guide on {os} and importing {product} fails right away."},
    {"After upgrading from {ver2} to {ver}, one epoch of {model} takes {m} s instead of {p} s on {dev}.",
     "Memory keeps growing by about {mb} MB per iteration until the process gets OOM-killed.",
     "GPU utilization stays around {p}% in nvidia-smi, so training is much slower than expected.",
     "The script hangs at `{api}` and never returns; py-spy shows every thread waiting on a lock.",
     "Throughput dropped from {m} samples/s to {p} samples/s with the same code and data.",
     "Peak memory is {n}x higher than with {ver2}, so we hit CUDA OOM at batch size {m}."},
    {"With {product} {ver} the validation accuracy drops from {a}% to {b}% with exactly the same code and data.",
     "The loss becomes NaN after ~{m} steps when training {model} with {opt} and mixed precision.",
     "`{api}` gives a different result than NumPy for the same input: the max abs difference is 1e-{n}, far above float32 noise.",
     "Running the same script twice gives different results, even with every seed set.",
     "The gradients of `{api}` do not match finite differences (relative error ~{p}%).",
     "Predictions on {dev} differ from CPU by a lot, the top-1 accuracy goes from {a}% to {b}%."},
    {"No error or warning is raised, but the output of `{api}` has shape ({shape}) instead of ({shape2}).",
     "The `{param}` argument of `{api}` is silently ignored: the result is identical whatever value I pass.",
     "After saving and reloading the model the weights are different and predictions change, without any warning.",
     "`{api}` quietly converts the input to float32, so float64 precision is lost without notice.",
     "Some keys of the checkpoint are skipped when loading and nothing is logged, so the model runs with random weights.",
     "`{api}` returns an empty result instead of raising when the input is invalid."},
};

const char* const kExpected[] = {
    "I expected `{api}` to behave the same as in {ver2}.", "The output should match the reference implementation.",
    "An error should be raised instead of continuing.", "It should work like the documentation says.",
    "Same speed and memory as the previous release.", "Identical results between runs and devices."};

const char* const kProbeBodySentences[] = {"Tagging this for triage: ghsiftprobebody.",
                                           "Internal reference ghsiftprobebody, please keep.",
                                           "(ghsiftprobebody) Seen in our nightly runs too."};
const char* const kProbeCommentSentences[] = {"Also noting ghsiftprobecomment here for the record.",
                                              "ghsiftprobecomment: same on our side.",
                                              "Adding the keyword ghsiftprobecomment so we can find this later."};

// ---- code and logs ---------------------------------------------------------------------------

void AppendSnippet(Rng& rng, const Dialect& d, bool probe, std::string& out) {
  out += d.import_line;
  out += "\n\n";
  if (rng.Chance(0.3)) out += "path = \"C:\\\\Users\\\\dev\\\\data\\\\train\"  # Windows path\n";
  out += "x = ";
  out += d.tensor_ctor;
  out += "((";
  Expand(out, "{shape}))\nout = {api}(x, {param}=None)\n", rng, d);
  if (probe) out += "# ghsiftprobecode\n";
  if (rng.Chance(0.5)) {
    out += "for step in range(1000):\n    loss = train_step(model, batch)\n    if step % 100 == 0:\n";
    out += "        print(f\"step {step}: loss={loss:.4f}\")\n";
  }
  out += "print(\"shape:\", out.shape)";
}

void AppendTraceback(Rng& rng, const Dialect& d, Theme theme, std::string& out) {
  const bool windows = rng.Chance(0.2);
  out += "Traceback (most recent call last):\n  File \"train.py\", line ";
  out += std::to_string(10 + rng.Below(200));
  out += ", in <module>\n    out = model(batch)\n  File \"";
  out += windows ? "C:\\Users\\dev\\miniconda3\\lib\\site-packages\\" : "/usr/local/lib/python3.10/site-packages/";
  std::string site = d.site_path;
  if (windows) {
    for (char& c : site) c = c == '/' ? '\\' : c;
  }
  out += site;
  out += windows ? "\\core.py\", line " : "/core.py\", line ";
  out += std::to_string(100 + rng.Below(2000));
  out += ", in forward\n    return self._impl(x)\n";
  switch (theme) {
    case Theme::kPerformance:
      out += "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.69 GiB total capacity; "
             "21.10 GiB already allocated; 1.02 GiB free)";
      break;
    case Theme::kAccuracy:
      out += "FloatingPointError: Loss is nan at step ";
      out += std::to_string(rng.Below(5000));
      break;
    default:
      if (rng.Chance(0.5)) {
        Expand(out, "TypeError: {api}() got an unexpected keyword argument '{param}'", rng, d);
      } else {
        out += "ImportError: libcudart.so.12: cannot open shared object file: No such file or directory";
      }
  }
}

void AppendLog(Rng& rng, std::string& out) {
  const int lines = rng.Range(2, 5);
  for (int i = 0; i < lines; ++i) {
    if (i > 0) out += '\n';
    // ANSI colour codes are common in pasted logs; they become \u001b in JSON.
    if (rng.Chance(0.3)) out += "\x1b[33mWARNING\x1b[0m ";
    out += "epoch ";
    out += std::to_string(i + 1);
    out += "/10\tloss: 0.";
    out += std::to_string(1000 + rng.Below(9000));
    out += "\tacc: 0.";
    out += std::to_string(100 + rng.Below(900));
  }
}

void AppendEnvList(Rng& rng, const Dialect& d, std::string& out) {
  Expand(out,
         "- OS Platform and Distribution: {os}\n- {product} version: {ver}\n- Python version: 3.1{n}\n"
         "- CUDA/cuDNN version: 12.1 / 8.9\n- GPU model and memory: {dev}",
         rng, d);
}

void AppendProse(Rng& rng, const Dialect& d, Theme theme, std::string& out) {
  const auto& pool = kProse[static_cast<int>(theme)];
  Expand(out, pool[rng.Below(6)], rng, d);
  if (rng.Chance(0.4)) {
    out += ' ';
    Expand(out, pool[rng.Below(6)], rng, d);
  }
  if (rng.Chance(0.15)) {
    out += ' ';
    Expand(out, "{thanks}", rng, d);
  }
}

void AppendProbeSentence(Rng& rng, const char* const (&pool)[3], std::string& paragraph) {
  if (!paragraph.empty()) paragraph += ' ';
  paragraph += rng.Pick(pool);
}

// A markdown-in-markdown example: the inner ``` lines must not close the outer ```` fence.
void NestedFenceExample(Rng& rng, const Dialect& d, bool probe, MarkdownBuilder& md) {
  std::string content = "```python\n";
  Expand(content, "{api}(x, {param}=True)\n", rng, d);
  if (probe) content += "# ghsiftprobecode\n";
  content += "```";
  md.FenceWith('`', 4, 0, "markdown", content, false, 4, 0);
}

std::string MakeIssueBody(Rng& rng, const ReportTextSpec& spec, const Dialect& d) {
  MarkdownBuilder md(rng.Chance(0.2));
  bool code_planted = !spec.probe_code;
  bool body_planted = !spec.probe_body;
  std::string para;
  const int style = static_cast<int>(rng.Below(10));
  if (style < 5) {
    // Issue-template style with headings.
    md.Paragraph(rng.Chance(0.5) ? "### Describe the bug" : "**Describe the current behavior**");
    AppendProse(rng, d, spec.theme, para);
    if (!body_planted) {
      AppendProbeSentence(rng, kProbeBodySentences, para);
      body_planted = true;
    }
    md.Paragraph(para);
    md.Paragraph("### To Reproduce");
    std::string code;
    AppendSnippet(rng, d, !code_planted, code);
    code_planted = true;
    md.Fence(rng, "python", code);
    if (rng.Chance(0.6)) {
      std::string tb;
      AppendTraceback(rng, d, spec.theme, tb);
      md.Fence(rng, rng.Chance(0.5) ? "pytb" : "text", tb);
    }
    md.Paragraph("### Expected behavior");
    md.Paragraph(Expanded(rng.Pick(kExpected), rng, d));
    md.Paragraph("### Environment");
    std::string env;
    AppendEnvList(rng, d, env);
    if (rng.Chance(0.3)) {
      md.Fence(rng, "", env, rng.Chance(0.1));  // sometimes left open to the end of the body
    } else {
      md.Paragraph(env);
    }
  } else if (style < 8) {
    // Free-form report.
    AppendProse(rng, d, spec.theme, para);
    if (!body_planted) {
      AppendProbeSentence(rng, kProbeBodySentences, para);
      body_planted = true;
    }
    md.Paragraph(para);
    if (rng.Chance(0.5) || !code_planted) {
      if (spec.theme == Theme::kNone && rng.Chance(0.3)) {
        NestedFenceExample(rng, d, !code_planted, md);
      } else {
        std::string code;
        AppendSnippet(rng, d, !code_planted, code);
        md.Fence(rng, rng.Chance(0.5) ? "python" : "py", code);
      }
      code_planted = true;
    }
    if (rng.Chance(0.5)) {
      std::string log;
      AppendLog(rng, log);
      md.Fence(rng, "console", log, rng.Chance(0.05));
    }
  } else {
    // A one-liner, sometimes with a pasted traceback.
    para = Expanded(kProse[static_cast<int>(spec.theme)][rng.Below(6)], rng, d);
    if (!body_planted) {
      AppendProbeSentence(rng, kProbeBodySentences, para);
      body_planted = true;
    }
    md.Paragraph(para);
    if (!code_planted || rng.Chance(0.4)) {
      std::string tb;
      AppendTraceback(rng, d, spec.theme, tb);
      if (!code_planted) tb.insert(0, "# ghsiftprobecode\n");
      code_planted = true;
      md.Fence(rng, "", tb);
    }
  }
  return md.Take();
}

std::string MakePrBody(Rng& rng, const ReportTextSpec& spec, const Dialect& d) {
  MarkdownBuilder md(rng.Chance(0.1));
  md.Paragraph(rng.Chance(0.5) ? "## What does this PR do?" : "### Description");
  std::string para = Expanded(kPrTitles[static_cast<int>(spec.theme)][rng.Below(5)], rng, d);
  para += ". ";
  Expand(para, "This changes `{api}` and adds a test for `{param}`.", rng, d);
  if (spec.probe_body) AppendProbeSentence(rng, kProbeBodySentences, para);
  md.Paragraph(para);
  if (!spec.reference.empty()) md.Paragraph(spec.reference);
  if (spec.probe_code || rng.Chance(0.4)) {
    std::string bench = "before: ";
    bench += std::to_string(100 + rng.Below(900));
    bench += " ms/iter\nafter:  ";
    bench += std::to_string(10 + rng.Below(90));
    bench += " ms/iter";
    if (spec.probe_code) bench += "\n# ghsiftprobecode";
    md.Fence(rng, "", bench);
  }
  md.Paragraph("- [x] Added tests\n- [ ] Updated the docs\n- [x] Ran the linters");
  return md.Take();
}

}  // namespace

const char* ThemeName(Theme theme) {
  switch (theme) {
    case Theme::kPerformance: return "performance";
    case Theme::kAccuracy: return "accuracy";
    case Theme::kSilent: return "silent";
    default: return "none";
  }
}

std::string MakeTitle(Rng& rng, const ReportTextSpec& spec) {
  const Dialect& d = DialectFor(spec.repo_full_name);
  const int t = static_cast<int>(spec.theme);
  std::string title = spec.is_pr ? Expanded(kPrTitles[t][rng.Below(5)], rng, d)
                                 : Expanded(kIssueTitles[t][rng.Below(10)], rng, d);
  if (!spec.is_pr && rng.Chance(0.1)) title.insert(0, "[Bug] ");
  if (spec.probe_title) {
    if (rng.Chance(0.5)) {
      title.insert(0, "ghsiftprobetitle: ");
    } else {
      title += " (ghsiftprobetitle)";
    }
  }
  return title;
}

std::string MakeBody(Rng& rng, const ReportTextSpec& spec) {
  const Dialect& d = DialectFor(spec.repo_full_name);
  return spec.is_pr ? MakePrBody(rng, spec, d) : MakeIssueBody(rng, spec, d);
}

void MakeComment(Rng& rng, const CommentTextSpec& spec, std::string* out) {
  static const char* const kGeneric[] = {
      "Thanks for the report! Could you share a minimal reproducible example?",
      "I can reproduce this on {ver} with {dev}.",
      "Same here on {os} 😕",
      "Could you try the nightly build? I think this was fixed recently.",
      "+1, also seeing this.",
      "Any update on this? It's blocking our upgrade to {ver}.",
      "This is expected behaviour, see the docs of `{api}`.",
      "Closing as this seems resolved. Feel free to reopen if it persists.",
      "I'd be happy to send a PR for this if nobody is working on it.",
      "C'est toujours le cas avec {ver}, malheureusement."};
  static const char* const kThemed[4][3] = {
      {"Looks like a packaging problem on {os}.", "The docs page for `{api}` is indeed wrong.", "Duplicate of an older report."},
      {"I profiled it and most of the time is spent in `{api}`.", "Memory is fine with {ver2}, so this is a regression.",
       "Setting `{param}` did not change the speed for me."},
      {"I see the same NaN after {m} steps.", "The difference goes away with float64, so it is a precision issue.",
       "Accuracy is back to {a}% when I downgrade to {ver2}."},
      {"Indeed `{param}` is dropped before the kernel is called, so it has no effect.",
       "Confirmed: the shape is wrong and nothing is reported.", "Reloading twice gives two different sets of weights here too."},
  };
  const Dialect& d = DialectFor(spec.repo_full_name);
  MarkdownBuilder md(rng.Chance(0.15));
  std::string para;
  if (rng.Chance(0.5)) {
    Expand(para, rng.Pick(kGeneric), rng, d);
  } else {
    Expand(para, kThemed[static_cast<int>(spec.theme)][rng.Below(3)], rng, d);
  }
  if (spec.probe_prose) AppendProbeSentence(rng, kProbeCommentSentences, para);
  md.Paragraph(para);
  if (spec.probe_code || rng.Chance(0.25)) {
    std::string code;
    if (rng.Chance(0.5)) {
      AppendLog(rng, code);
      if (spec.probe_code) code += "\nghsiftprobecode";
    } else {
      Expand(code, "# workaround\nout = {api}(x.float())", rng, d);
      if (spec.probe_code) code += "  # ghsiftprobecode";
    }
    md.Fence(rng, rng.Chance(0.5) ? "python" : "", code);
    if (rng.Chance(0.3)) md.Paragraph(Expanded("{thanks}", rng, d));
  }
  *out = md.Take();
}

void AppendCommitMessage(Rng& rng, std::string& out) {
  static const char* const kSubjects[] = {"Fix typo", "Update README.md", "Add tests for the parser", "Bump version to 1.2.3",
                                          "Refactor data loading", "WIP", "Merge branch 'main' into feature/cache",
                                          "Fix CI on Windows", "Initial commit", "Remove unused imports",
                                          "Handle empty input", "Mise à jour de la doc", "Add 🚀 deploy script"};
  out += rng.Pick(kSubjects);
  if (rng.Chance(0.3)) {
    out += "\n\nThe previous version failed with \"index out of range\" on empty files.\n\nSigned-off-by: dev <dev@example.com>";
  }
}

void AppendReviewText(Rng& rng, std::string& out) {
  static const char* const kReviews[] = {"LGTM", "Looks good, one nit below.", "Can you add a test for this?",
                                         "Nice catch! 👍", "Please rebase on main.",
                                         "This changes the public API, we need a deprecation first.",
                                         "Why not reuse the existing helper here?"};
  out += rng.Pick(kReviews);
}

void AppendReleaseNotes(Rng& rng, std::string_view tag, std::string& out) {
  out += "## What's Changed\r\n* Fix crash on empty input by @dev in #";
  out += std::to_string(10 + rng.Below(500));
  out += "\r\n* Faster startup ⚡ by @maria in #";
  out += std::to_string(10 + rng.Below(500));
  out += "\r\n\r\n**Full Changelog**: ";
  out += tag;
}

std::string_view MakeBackgroundPrTitle(Rng& rng) {
  static const char* const kTitles[] = {"Update dependencies", "Add dark mode", "Fix broken link in docs",
                                        "Bump lodash from 4.17.20 to 4.17.21", "Improve error messages",
                                        "Add GitHub Actions workflow", "Support config files", "Refactor CLI"};
  return rng.Pick(kTitles);
}

std::string MakeGarbageLine(Rng& rng) {
  switch (rng.Below(3)) {
    case 0:
      return "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>";
    case 1: {
      static const char kNoise[] = "abcdefghijklmnopqrstuvwxyz0123456789 ;:,.!?-_=+()";
      std::string line = "x";
      const int n = rng.Range(20, 200);
      for (int i = 0; i < n; ++i) line.push_back(kNoise[rng.Below(sizeof(kNoise) - 1)]);
      return line;
    }
    default: {
      // Archive users report lines filled with NUL bytes.
      std::string line(static_cast<size_t>(rng.Range(8, 64)), '\0');
      line += "lost record";
      return line;
    }
  }
}

}  // namespace ghsift::gen
