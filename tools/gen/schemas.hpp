#pragma once
// The record layouts `ghsift gen` writes (--schema): the only list of them. The command's
// choices and help, the option check and the default first hour all read this table.
#include <span>
#include <string>
#include <string_view>

namespace ghsift::gen {

struct Schema {
  std::string_view name;
  std::string_view what;        //!< for --help: the era and what sets its records apart
  std::string_view start_hour;  //!< the first hour of a corpus written without --start
};

//! Every schema, "modern" (the default) first.
std::span<const Schema> Schemas();

//! The schema named `name`, or null.
const Schema* FindSchema(std::string_view name);

//! "modern, legacy, ... or slim-2025": for error messages.
std::string SchemaNames();

}  // namespace ghsift::gen
