#pragma once
// The hours `ingest --from/--to` and `ingest --follow --from` name, and the archive URLs of a
// range: how a user's time arguments become the hour files to read.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/result.hpp"

namespace ghsift::cli {

//! The hours an --from/--to argument names, first and last as hour indices: an hour as GH
//! Archive names its files (YYYY-MM-DD-H), or the one time syntax (YYYY-MM, YYYY-MM-DD,
//! YYYY-MM-DDTHH, or a span back from now such as 7d, which names one instant).
struct HourSpan {
  int64_t first = 0, last = 0;  //!< UTC hours
  bool relative = false;
  //! Given as an archive file's name: that file's own hour (US-Pacific from 2012-03-11 to 2014,
  //! and the files 2014-12-31-16..23 cover the same UTC hours as 2015-01-01-0..7).
  std::optional<int64_t> file_hour;
};

Result<HourSpan> ParseHourSpan(const std::string& text, const char* option, int64_t now);

//! The URL under `source` of every GH Archive hour from `from` to `to` (each a month, a day, an
//! hour, or a span back from now; an empty `to` means `from`, or now when `from` is relative),
//! named as the archive names them (hour not zero-padded; by the US-Pacific hour from 2012-03-11
//! to 2014), up to the newest hour that has ended at `now`. `note` is set when the range was cut
//! there.
Result<std::vector<std::string>> HourUrls(const std::string& from, const std::string& to, const std::string& source,
                                          int64_t now, std::string* note);

//! What `ingest --catch-up` adds to a range: the archive files of the span before the range's
//! first that the store lacks, from its first hour on, so that a run after an outage reads every
//! hour since the store ends, and an hour that failed is asked for again after it has left the
//! range.
struct CatchUp {
  std::vector<std::string> urls;  //!< oldest first
  //! The file hours not asked for because they are older than the catch-up's limit (none when
  //! `left_last < left_first`): said, and the run exits 2, so that a longer gap is not lost quietly.
  int64_t left_first = 0, left_last = -1;
};

//! `held`: the file hours the store holds (StoredHours: ingested, or recorded missing at the
//! source); `range_first`: the range's first file hour; `oldest`: the oldest file hour to ask for
//! (the --catch-up span back from now).
CatchUp CatchUpHours(const std::set<int64_t>& held, int64_t range_first, int64_t oldest, const std::string& source);

}  // namespace ghsift::cli
