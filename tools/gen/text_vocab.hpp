#pragma once
// Vocabulary of the report texts: per-framework API names and versions, and a tiny
// "{placeholder}" expander so templates stay readable.
#include <span>
#include <string>
#include <string_view>

#include "gen/rng.hpp"

namespace ghsift::gen {

struct Dialect {
  const char* product;      //!< "PyTorch"
  const char* import_line;  //!< "import torch"
  const char* tensor_ctor;  //!< "torch.randn"
  const char* site_path;    //!< package directory used in tracebacks
  std::span<const char* const> apis;
  std::span<const char* const> params;
  std::span<const char* const> versions;
};

//! The dialect of a repository ("pytorch/pytorch" -> PyTorch); other repos get a generic one.
const Dialect& DialectFor(std::string_view repo_full_name);

//! Expands {api} {param} {ver} {ver2} {product} {dev} {os} {model} {opt} {n} {m} {p} {a} {b}
//! {mb} {shape} {shape2} {word} {task} {feature} {thanks} in `tmpl` and appends the result.
void Expand(std::string& out, std::string_view tmpl, Rng& rng, const Dialect& dialect);

inline std::string Expanded(std::string_view tmpl, Rng& rng, const Dialect& dialect) {
  std::string out;
  Expand(out, tmpl, rng, dialect);
  return out;
}

}  // namespace ghsift::gen
