#include "io/http_source.hpp"

#include "io/arrival_signal.hpp"
#include "io/curl_library.hpp"
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <utility>
#include <vector>

#include "common/ascii_case.hpp"
#include "common/assert.hpp"

namespace ghsift {
namespace {

constexpr size_t kBlockBytes = 1 << 20;

//! Received blocks, kept for the next transfers. Each hour's transfer runs on a new thread, and
//! the allocator serves a new thread from another arena, so blocks freed after one hour were not
//! reused by the next: every hour touched fresh memory (on the virtual machines measured, the
//! kernel's zeroing of it cost more CPU than inflating the hour).
class BlockPool {
 public:
  std::string Take() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.empty()) {
      std::string block;
      block.reserve(kBlockBytes);
      return block;
    }
    std::string block = std::move(free_.back());
    free_.pop_back();
    return block;
  }
  void Give(std::string block) {
    if (block.capacity() < kBlockBytes || block.capacity() > 2 * kBlockBytes) return;
    block.clear();
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.size() < kMaxKept) free_.push_back(std::move(block));
  }

 private:
  static constexpr size_t kMaxKept = 128;  // 128 MiB: the buffers of 16 transfers
  std::mutex mutex_;
  std::vector<std::string> free_;
};

BlockPool& Blocks() {
  static BlockPool pool;
  return pool;
}

//! Failures worth another attempt: the network or the server may do better next time.
bool Retriable(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_PARTIAL_FILE:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_SSL_CONNECT_ERROR:
      return true;
    default:
      return false;
  }
}

//! "3.7 MiB".
std::string MiB(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

}  // namespace

size_t BufferBytesFor(size_t connections) {
  constexpr size_t kShared = 4 << 20;
  return std::clamp<size_t>(kShared / std::max<size_t>(connections, 1), kBlockBytes, kShared);
}

bool IsHttpUrl(const std::string& input) {
  return StartsWithAnyCase(input, "http://") || StartsWithAnyCase(input, "https://");
}

std::string UrlFileName(const std::string& url) {
  std::string path = url.substr(0, url.find_first_of("?#"));
  while (!path.empty() && path.back() == '/') path.pop_back();
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string UrlOrigin(const std::string& url) {
  const size_t scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return AsciiLower(url);
  return AsciiLower(url.substr(0, url.find_first_of("/?#", scheme_end + 3)));
}

//! One request: what it asked for and what came back.
struct HttpSource::Attempt {
  HttpSource* self = nullptr;
  CURL* curl = nullptr;
  uint64_t offset = 0;        //!< the Range start asked for (bytes delivered before it)
  uint64_t skip = 0;          //!< bytes of this body already delivered by an earlier attempt
  uint64_t skip_crc = 0;      //!< their CRC-64 as received now
  uint64_t delivered_crc = 0; //!< CRC-64 of the first `offset` bytes delivered (to compare)
  bool checked_status = false;
  long http_status = 0;
  bool length_known = false;  //!< the answer had a Content-Length (its end is where it says)
  Status abort;               //!< why the body callback stopped the transfer
  bool retry = false;         //!< the failure is worth another attempt
  // Stall detection: libcurl's own (LOW_SPEED_TIME) averages over its last seconds, so it cut a
  // transfer some 5 s after --stall-seconds; here the clock starts at the last byte.
  curl_off_t last_bytes = -1;
  std::chrono::steady_clock::time_point last_change;
  bool stalled = false;
};

HttpSource::HttpSource(std::string url, HttpOptions options)
    : url_(std::move(url)),
      options_(std::move(options)),
      // A block, or half the buffer when it is smaller: a buffer that can never hold the
      // threshold would never be Ready before its transfer ends.
      ready_bytes_(std::clamp<size_t>(options_.buffer_bytes / 2, 1, kBlockBytes)),
      retry_wait_(options_.retry_wait_seconds) {}

Result<std::unique_ptr<HttpSource>> HttpSource::Open(const std::string& url, const HttpOptions& options) {
  if (!IsHttpUrl(url)) return Status::InvalidArgument(url + ": only http:// and https:// URLs are read");
  GHSIFT_ASSIGN_OR_RETURN(const CurlLibrary* curl, LoadCurlLibrary());
  std::unique_ptr<HttpSource> source(new HttpSource(url, options));
  source->curl_ = curl;
  if (!options.save_path.empty()) {
    const std::string part = options.save_path + ".part";
    source->copy_fd_ = ::open(part.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (source->copy_fd_ < 0) return Status::IoError(part + ": cannot create: " + std::strerror(errno));
  }
  source->thread_ = std::thread([raw = source.get()] { raw->Transfer(/*retrying=*/false); });
  return source;
}

HttpSource::~HttpSource() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cancel_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (copy_fd_ >= 0) {
    ::close(copy_fd_);
    std::error_code ec;  // an unfinished copy is not left behind looking like a dump
    std::filesystem::remove(options_.save_path + ".part", ec);
  }
}

Result<bool> HttpSource::WaitForBytes(std::unique_lock<std::mutex>& lock) {
  while (blocks_.empty() && !done_) {
    if (options_.stop != nullptr && options_.stop->load()) return Status::Cancelled("stopped during the transfer");
    changed_.wait_for(lock, std::chrono::milliseconds(100));
  }
  if (!blocks_.empty()) return true;
  if (!final_.ok()) return final_;
  // The transfer thread hashed every byte it buffered, in order: the body's hash, not computed twice.
  crc_ = received_crc_;
  return false;
}

bool HttpSource::Ready() const {
  // A block, or half a smaller buffer (ready_bytes_): a worker that starts a chunk on a trickle of
  // bytes would wait inside it at this connection's rate while other transfers, their buffers
  // full, stand still.
  std::lock_guard<std::mutex> lock(mutex_);
  return buffered_ >= ready_bytes_ || done_;
}

Result<size_t> HttpSource::Read(std::span<char> out) {
  std::unique_lock<std::mutex> lock(mutex_);
  GHSIFT_ASSIGN_OR_RETURN(const bool more, WaitForBytes(lock));
  if (!more) {
    lock.unlock();
    GHSIFT_TRY(FinishCopy());
    return size_t{0};
  }
  size_t n = 0;
  while (n < out.size() && !blocks_.empty()) {
    const std::string& front = blocks_.front();
    const size_t take = std::min(out.size() - n, front.size() - front_read_);
    std::memcpy(out.data() + n, front.data() + front_read_, take);
    n += take;
    front_read_ += take;
    if (front_read_ == front.size()) {
      Blocks().Give(std::move(blocks_.front()));
      blocks_.pop_front();
      front_read_ = 0;
    }
  }
  buffered_ -= n;
  lock.unlock();
  changed_.notify_all();
  GHSIFT_TRY(Delivered(out.first(n)));
  return n;
}

Result<std::span<const char>> HttpSource::ReadView(std::span<char> /*scratch*/) {
  Blocks().Give(std::exchange(lent_, std::string()));  // the caller is done with the last view
  std::unique_lock<std::mutex> lock(mutex_);
  GHSIFT_ASSIGN_OR_RETURN(const bool more, WaitForBytes(lock));
  if (!more) {
    lock.unlock();
    GHSIFT_TRY(FinishCopy());
    return std::span<const char>();
  }
  // The whole front block is lent: the transfer thread starts a new one for what comes next.
  lent_ = std::move(blocks_.front());
  blocks_.pop_front();
  const size_t start = std::exchange(front_read_, 0);
  buffered_ -= lent_.size() - start;
  lock.unlock();
  changed_.notify_all();
  const std::span<const char> view(lent_.data() + start, lent_.size() - start);
  GHSIFT_TRY(Delivered(view));
  return view;
}

Status HttpSource::Delivered(std::span<const char> bytes) {
  bytes_read_ += bytes.size();
  if (copy_fd_ < 0) return Status::Ok();
  for (size_t written = 0; written < bytes.size();) {
    const ssize_t w = ::write(copy_fd_, bytes.data() + written, bytes.size() - written);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return Status::IoError(options_.save_path + ".part: write failed: " + std::strerror(errno));
    written += static_cast<size_t>(w);
  }
  return Status::Ok();
}

Status HttpSource::FinishCopy() {
  if (copy_fd_ < 0) return Status::Ok();
  const int fd = copy_fd_;
  copy_fd_ = -1;
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    return Status::IoError(options_.save_path + ".part: cannot finish: " + std::strerror(errno));
  }
  if (std::rename((options_.save_path + ".part").c_str(), options_.save_path.c_str()) != 0) {
    return Status::IoError(options_.save_path + ": cannot rename the copy: " + std::strerror(errno));
  }
  return Status::Ok();
}

Status HttpSource::ReopenCopy() {
  if (options_.save_path.empty()) return Status::Ok();
  const std::string part = options_.save_path + ".part";
  if (std::rename(options_.save_path.c_str(), part.c_str()) != 0) {
    return Status::IoError(options_.save_path + ": cannot take up the copy again: " + std::strerror(errno));
  }
  copy_fd_ = ::open(part.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (copy_fd_ < 0) return Status::IoError(part + ": cannot reopen: " + std::strerror(errno));
  return Status::Ok();
}

size_t HttpSource::OnBody(Attempt& a, const char* data, size_t size) {
  if (!a.checked_status) {
    a.checked_status = true;
    curl_->easy_getinfo(a.curl, CURLINFO_RESPONSE_CODE, &a.http_status);
    if (a.http_status != 200 && a.http_status != 206) return 0;  // an error page is not the body
    if (a.offset > 0 && a.http_status == 200) a.skip = a.offset;  // the server ignored the Range
    curl_off_t length = -1;
    curl_->easy_getinfo(a.curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
    if (length >= 0) {
      const uint64_t total = static_cast<uint64_t>(length) + (a.http_status == 206 ? a.offset : 0);
      if (total > options_.max_bytes) {
        a.abort = Status::IoError("announces " + MiB(total) + ", more than the size cap of " + MiB(options_.max_bytes) +
                                  " (--max-hour-mib)");
        return 0;
      }
      announced_size_ = total;
    }
  }
  size_t consumed = 0;
  if (a.skip > 0) {  // a restart: the first bytes were delivered already; they must not change
    const size_t drop = static_cast<size_t>(std::min<uint64_t>(a.skip, size));
    a.skip_crc = ExtendContentHash(a.skip_crc, {data, drop});
    a.skip -= drop;
    consumed = drop;
    if (a.skip == 0 && a.skip_crc != a.delivered_crc) {
      a.abort = Status::IoError("the body changed between attempts (its first bytes were already read)");
      return 0;
    }
    if (consumed == size) return size;
  }
  const size_t n = size - consumed;
  if (received_ + n > options_.max_bytes) {
    a.abort = Status::IoError("larger than the size cap of " + MiB(options_.max_bytes) + " (--max-hour-mib)");
    return 0;
  }
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return cancel_ || buffered_ + n <= options_.buffer_bytes || buffered_ == 0; });
  if (cancel_) {
    a.abort = Status::Cancelled("reader gone");
    return 0;
  }
  // Pieces are gathered into blocks of kBlockBytes (from the pool): no allocation per piece
  // libcurl hands over.
  const bool starts_block = blocks_.empty() || blocks_.back().size() + n > blocks_.back().capacity();
  if (starts_block) {
    blocks_.push_back(Blocks().Take());
    if (blocks_.back().capacity() < n) blocks_.back().reserve(n);
  }
  blocks_.back().append(data + consumed, n);
  const bool became_ready = buffered_ < ready_bytes_ && buffered_ + n >= ready_bytes_;
  buffered_ += n;
  received_ += n;
  received_crc_ = ExtendContentHash(received_crc_, {data + consumed, n});
  lock.unlock();
  changed_.notify_all();
  if (became_ready && options_.arrivals != nullptr) options_.arrivals->Notify();
  return size;
}

Status HttpSource::RunAttempt(Attempt& a) {
  CURL* curl = curl_->easy_init();
  if (curl == nullptr) return Status::IoError("cannot create a transfer (libcurl)");
  a.curl = curl;
  char error[CURL_ERROR_SIZE] = {0};
  const std::string range = std::to_string(a.offset) + "-";
  curl_->easy_setopt(curl, CURLOPT_URL, url_.c_str());
  curl_->easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_->easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_->easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_->easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_->easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_->easy_setopt(curl, CURLOPT_MAXREDIRS, static_cast<long>(options_.max_redirects));
  curl_->easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_->easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
  if (!options_.ca_file.empty()) curl_->easy_setopt(curl, CURLOPT_CAINFO, options_.ca_file.c_str());
  curl_->easy_setopt(curl, CURLOPT_USERAGENT, options_.user_agent.c_str());
  curl_->easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, options_.connect_timeout_seconds);
  curl_->easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(options_.max_bytes));
  // Larger pieces from libcurl than its 16 KiB default: fewer calls and locks per hour.
  curl_->easy_setopt(curl, CURLOPT_BUFFERSIZE, 256L << 10);
  // GH Archive's files are gzip already: ask for the bytes as stored, never re-encoded.
  curl_->easy_setopt(curl, CURLOPT_HTTP_CONTENT_DECODING, 0L);
  if (a.offset > 0) curl_->easy_setopt(curl, CURLOPT_RANGE, range.c_str());
  a.self = this;
  // Called at least once a second, also while no byte arrives: a reader that went away (a stop
  // request) ends a stalled transfer now, and a transfer with no byte for --stall-seconds (from
  // the request on) is cut and retried.
  a.last_change = std::chrono::steady_clock::now();
  curl_->easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  curl_->easy_setopt(curl, CURLOPT_XFERINFODATA, &a);
  curl_->easy_setopt(curl, CURLOPT_XFERINFOFUNCTION,
                     +[](void* attempt, curl_off_t, curl_off_t now_bytes, curl_off_t, curl_off_t) -> int {
                       Attempt& a = *static_cast<Attempt*>(attempt);
                       {
                         std::lock_guard<std::mutex> lock(a.self->mutex_);
                         if (a.self->cancel_) return 1;
                       }
                       const auto now = std::chrono::steady_clock::now();
                       if (now_bytes != a.last_bytes) {
                         a.last_bytes = now_bytes;
                         a.last_change = now;
                       } else if (now - a.last_change >= std::chrono::seconds(a.self->options_.stall_seconds)) {
                         a.stalled = true;
                         return 1;
                       }
                       return 0;
                     });
  curl_->easy_setopt(curl, CURLOPT_WRITEDATA, &a);
  curl_->easy_setopt(curl, CURLOPT_WRITEFUNCTION, +[](char* data, size_t, size_t n, void* attempt) -> size_t {
    Attempt& a = *static_cast<Attempt*>(attempt);
    return a.self->OnBody(a, data, n);
  });
  const CURLcode code = curl_->easy_perform(curl);
  if (!a.checked_status) curl_->easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &a.http_status);
  curl_off_t length = -1;
  curl_->easy_getinfo(curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
  a.length_known = length >= 0;
  if (code == CURLE_FILESIZE_EXCEEDED && a.abort.ok()) {  // libcurl's own check of the Content-Length
    a.abort = Status::IoError("larger than the size cap of " + MiB(options_.max_bytes) + " (--max-hour-mib)");
  }
  if (code == CURLE_ABORTED_BY_CALLBACK && a.stalled) {
    curl_->easy_cleanup(curl);
    a.curl = nullptr;
    a.retry = true;
    return Status::IoError("stalled: no byte for " + std::to_string(options_.stall_seconds) + " s");
  }
  if (code == CURLE_ABORTED_BY_CALLBACK && a.abort.ok()) a.abort = Status::Cancelled("reader gone");
  curl_->easy_cleanup(curl);
  a.curl = nullptr;
  if (!a.abort.ok()) {
    a.retry = false;  // over the cap, changed between attempts, or the reader went away
    return a.abort;
  }
  const long status = a.http_status;
  if (code == CURLE_OK && (status == 200 || status == 206)) {
    if (a.skip == 0) return Status::Ok();
    a.retry = true;
    return Status::IoError("the body ended before the part already read");
  }
  if (status == 404 || status == 410) {
    return Status::NotFound("missing at source (HTTP " + std::to_string(status) + ")");
  }
  if (status == 416 && reading_on_ && a.offset > 0) {
    // Nothing after the bytes already read: the body without length did end there (its stream
    // is cut short at the source), as a body of that announced length would have.
    a.length_known = true;
    return Status::Ok();
  }
  if (status >= 300 && (code == CURLE_OK || code == CURLE_WRITE_ERROR)) {
    a.retry = status == 408 || status == 429 || status >= 500;
    return Status::IoError("HTTP " + std::to_string(status));
  }
  a.retry = Retriable(code);
  std::string reason = error[0] != '\0' ? error : curl_->easy_strerror(code);
  if (status > 0) reason += " (HTTP " + std::to_string(status) + ")";
  return Status::IoError(reason);
}

bool HttpSource::WaitBeforeRetry(double seconds) {
  std::unique_lock<std::mutex> lock(mutex_);
  return !changed_.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return cancel_; });
}

bool HttpSource::BackOff() {
  const double wait = retry_wait_;
  retry_wait_ = std::min(retry_wait_ * 2, 60.0);
  return WaitBeforeRetry(wait);
}

Status HttpSource::Spent(const std::string& reason) const {
  const int made = attempts_.load();
  return Status::IoError(url_ + ": " + reason + " after " + std::to_string(made) +
                         (made == 1 ? " attempt" : " attempts"));
}

void HttpSource::Transfer(bool retrying) {
  Status outcome;
  bool ended_without_length = false;
  if (retrying && !BackOff()) {
    outcome = Status::Cancelled("reader gone");
  } else {
    for (;;) {
      const int attempt = attempts_++;
      Attempt a;
      a.offset = received_;
      a.delivered_crc = received_crc_;
      outcome = RunAttempt(a);
      if (outcome.ok()) ended_without_length = !a.length_known;
      if (outcome.ok() || outcome.code() == StatusCode::kCancelled) break;
      if (outcome.code() == StatusCode::kNotFound) {
        outcome = Status::NotFound(url_ + ": " + outcome.message());
        break;
      }
      if (!a.retry || attempt >= options_.retries) {
        outcome = Spent(outcome.message());
        break;
      }
      if (!BackOff()) {
        outcome = Status::Cancelled("reader gone");
        break;
      }
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    final_ = outcome;
    ended_without_length_ = ended_without_length;
    done_ = true;
  }
  changed_.notify_all();
  if (options_.arrivals != nullptr) options_.arrivals->Notify();
}

Result<bool> HttpSource::ReadOnAfterEarlyEnd() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    GHSIFT_ASSERT(done_ && final_.ok() && blocks_.empty());  // asked only after the end was read
    // A body of announced length is whole: its stream was cut short at the source.
    if (!ended_without_length_) return false;
  }
  if (thread_.joinable()) thread_.join();
  if (attempts_.load() > options_.retries) {
    return Spent("the body (sent without a Content-Length) ended before its compressed stream did");
  }
  GHSIFT_TRY(ReopenCopy());
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = false;
  }
  reading_on_ = true;
  thread_ = std::thread([this] { Transfer(/*retrying=*/true); });
  return true;
}

}  // namespace ghsift
