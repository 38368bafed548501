#pragma once
// An HTTP(S) body as a byte source: a transfer thread (libcurl easy handle) fills a bounded
// buffer the decoder reads from, so the body streams from the socket into the pipeline and memory
// stays bounded by `buffer_bytes` per transfer.
//
// Faults are handled below the decoder, which only ever sees the body's bytes in order, once:
// a cut, reset, stalled or short transfer, a 5xx, 408 or 429 is retried with backoff; the retry
// asks for the rest with a Range request, and when the server answers with the whole body
// instead, the bytes already delivered are read again, compared (CRC-64) and dropped. A body sent
// without a Content-Length ends where the connection closed, which libcurl cannot tell from a
// cut: when the decoder finds its stream unfinished there, it asks (ReadOnAfterEarlyEnd) and the
// rest is asked for the same way, from the same retries.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "io/byte_source.hpp"

namespace ghsift {

struct CurlLibrary;
class ArrivalSignal;

struct HttpOptions {
  int retries = 5;                      //!< further attempts after the first
  double retry_wait_seconds = 1.0;      //!< the first wait; doubled after each failure, at most 60 s
  uint64_t max_bytes = 8ull << 30;      //!< an hour larger than this fails (a hostile server)
  int max_redirects = 5;
  long connect_timeout_seconds = 30;
  long stall_seconds = 60;              //!< a transfer with no byte for this long is cut and retried
  size_t buffer_bytes = 8 << 20;        //!< bytes received and not yet decoded, per transfer
  std::string user_agent = "ghsift";
  //! Certificate bundle to trust instead of the system's (tests with a local HTTPS server).
  //! Verification itself is never turned off.
  std::string ca_file;
  //! When set, a copy of the body is written here (through `<path>.part`, renamed when whole).
  std::string save_path;
  //! Set from a signal handler: a Read waiting for bytes returns a kCancelled status.
  const std::atomic<bool>* stop = nullptr;
  //! Notified each time this transfer becomes Ready (its owner reads several at once).
  ArrivalSignal* arrivals = nullptr;
};

//! Each transfer's buffer when `connections` run at once: 4 MiB shared between them, at least one
//! block (1 MiB) each. The block a reader has borrowed is outside the buffer, so even one block
//! lets the transfer fill the next while the last is inflated. The kernel's socket buffer holds
//! what arrives meanwhile, so a small buffer costs no speed (8 connections at 5 MB/s each: the same
//! time with 1 and 8 MiB each) and keeps peak RSS near a disk ingest's (unshaped loopback, 8
//! connections: 168 -> 152-157 MB against 138-140 from disk).
size_t BufferBytesFor(size_t connections);

//! True for http:// and https:// inputs (case-insensitive scheme).
bool IsHttpUrl(const std::string& input);
//! The file name an URL's hour is keyed by: the last path segment, without query or fragment.
std::string UrlFileName(const std::string& url);
//! The server an URL asks: its scheme and authority in lower case ("https://data.gharchive.org").
std::string UrlOrigin(const std::string& url);

class HttpSource final : public ByteSource {
 public:
  //! Starts the transfer. Only http and https URLs are accepted.
  static Result<std::unique_ptr<HttpSource>> Open(const std::string& url, const HttpOptions& options);
  ~HttpSource() override;
  HttpSource(const HttpSource&) = delete;
  HttpSource& operator=(const HttpSource&) = delete;

  //! Blocks until bytes arrive. A 404 or 410 ends as kNotFound ("missing at source"); other
  //! failures after the last retry as kIoError, with the URL and the reason.
  Result<size_t> Read(std::span<char> out) override;
  //! Lends the next received block whole (no copy); it goes back to the pool at the next call.
  Result<std::span<const char>> ReadView(std::span<char> scratch) override;
  //! A block's worth of received bytes (half the buffer if that is less) is buffered, or the
  //! transfer ended.
  bool Ready() const override;
  uint64_t size() const override { return announced_size_.load(); }
  uint64_t bytes_read() const override { return bytes_read_; }
  uint64_t content_hash() const override { return crc_; }
  //! After the end of a body sent without a Content-Length, which the decoder found early: the
  //! transfer starts again for the rest (after the next backoff wait, as a retry) and true is
  //! returned; the bytes read on as if the body had not ended. False after a body of announced
  //! length (it is whole: the stream was cut short at the source). Fails with the URL and the
  //! reason when the retries are spent.
  Result<bool> ReadOnAfterEarlyEnd() override;
  //! Attempts made so far (1 without a retry).
  int attempts() const { return attempts_.load(); }

 private:
  HttpSource(std::string url, HttpOptions options);
  //! The transfer thread: attempts until the body ends, fails or the retries are spent. With
  //! `retrying` (reading on after an early end) it first waits as before a retry.
  void Transfer(bool retrying);
  struct Attempt;
  Status RunAttempt(Attempt& attempt);
  //! The final failure: "URL: reason after N attempts".
  Status Spent(const std::string& reason) const;
  //! Waits before the next attempt (doubling the wait for the one after); false if the reader
  //! went away meanwhile.
  bool BackOff();
  const CurlLibrary* curl_ = nullptr;  //!< libcurl, loaded by the first Open
  size_t OnBody(Attempt& attempt, const char* data, size_t size);
  bool WaitBeforeRetry(double seconds);
  //! With `lock` held: waits for received bytes (true) or the end of the transfer (false, or
  //! its failure).
  Result<bool> WaitForBytes(std::unique_lock<std::mutex>& lock);
  //! Counts bytes handed to the reader and writes them to the --save-dumps copy.
  Status Delivered(std::span<const char> bytes);
  Status FinishCopy();
  //! Takes up the copy FinishCopy finished at an end that proved early, to append the rest.
  Status ReopenCopy();

  const std::string url_;
  const HttpOptions options_;
  const size_t ready_bytes_;        //!< buffered bytes from which the source is Ready

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> blocks_;  //!< received, not yet read
  size_t front_read_ = 0;           //!< bytes of blocks_.front() already read
  size_t buffered_ = 0;
  bool done_ = false;               //!< the transfer thread finished (see `final_`)
  Status final_;                    //!< its outcome
  bool ended_without_length_ = false;  //!< the body that ended had no Content-Length
  bool cancel_ = false;             //!< the reader went away

  std::atomic<uint64_t> announced_size_{0};
  std::atomic<int> attempts_{0};
  uint64_t received_ = 0;           //!< body bytes handed to the buffer (transfer thread)
  uint64_t received_crc_ = 0;       //!< their CRC-64, to compare a restarted body's first bytes
  double retry_wait_;               //!< the next wait before a retry (transfer thread)
  //! The transfer was started again after an end without length: a 416 to its Range request
  //! says the body did end there.
  bool reading_on_ = false;
  // Reader side.
  uint64_t bytes_read_ = 0;
  uint64_t crc_ = 0;                //!< received_crc_ once the body ended
  std::string lent_;                //!< the block ReadView lent last
  int copy_fd_ = -1;
  std::thread thread_;
};

}  // namespace ghsift
