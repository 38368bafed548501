#!/usr/bin/env python3
"""A local HTTP server for ghsift's tests: serves the files of a directory on 127.0.0.1 and
injects faults per file name. Prints its port on the first line of stdout, serves until no
request came for --idle seconds (or until --lifetime), then stops itself.

Faults (--fault NAME=KIND, repeatable; applied to the first request for NAME unless noted):
  reset     send half of the body, then reset the connection
  error500  answer 500 once, then serve normally
  trickle   send the body in small pieces with pauses (every request)
  short     announce the full Content-Length (none with nolength), send half, close
  shortever like short, on every request (a Range request gets half of the rest)
  nolength  no Content-Length: the body ends where the connection closes (every request)
  missing   404 (every request)
  loop      redirect to itself (every request)
  norange   ignore Range headers: always send the whole body (every request)
  stall     send half of the body, then nothing until the client goes away (every request)
  late      send the headers, then the body only 8 s later (first request)
  endless   no Content-Length: the file's bytes again and again (a valid multi-member gzip
            stream) until the client goes away, at most 64 MiB (every request)
  biglength announce a Content-Length of 64 MiB and send random bytes (every request)
  moved     redirect the first request to /moved/NAME (then served normally)
  toftp     redirect to ftp://127.0.0.1/NAME (every request)
  tofile    redirect to file:///etc/hostname (every request)
Kinds combine with '+' (short+norange: a cut body, then a retry answered with the whole body).
Range requests (bytes=N-) are honoured otherwise; one that starts at the end or past it is
answered 416. --latency-ms and --rate-mbps shape every answer like a distant server: a wait
before the status line, and the body paced to that many MB/s per connection (for
bench/http_ingest.sh; 0, the default, is as fast as the loopback allows).
--peak-file PATH keeps there the largest number of requests it was answering at once. With --tls CERT KEY the server speaks HTTPS. Each request is logged to --log as
"NAME RANGE STATUS" so a test can check what was asked.
"""
import argparse
import os
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--fault", action="append", default=[])
    parser.add_argument("--idle", type=float, default=30.0)
    parser.add_argument("--lifetime", type=float, default=300.0)
    parser.add_argument("--log", default="")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--latency-ms", type=float, default=0.0)
    parser.add_argument("--rate-mbps", type=float, default=0.0)
    parser.add_argument("--peak-file", default="")
    args = parser.parse_args()
    faults = dict(f.split("=", 1) for f in args.fault)
    seen = set()
    lock = threading.Lock()
    last_request = [time.monotonic()]
    in_flight = [0, 0]  # requests being answered now, the most at once

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def record(self, name, rng, status):
            if args.log:
                with lock, open(args.log, "a") as log:
                    log.write(f"{name} {rng or '-'} {status} {self.headers.get('User-Agent', '-')}\n")

        def send_paced(self, body):
            """The body at --rate-mbps (MB/s) on this connection, in 64 KiB pieces. Like a link of
            that rate, time the client spends not reading is lost, never made up in a burst."""
            if args.rate_mbps <= 0:
                self.wfile.write(body)
                return
            piece = 64 << 10
            due = time.monotonic()
            for i in range(0, len(body), piece):
                self.wfile.write(body[i : i + piece])
                due = max(due, time.monotonic()) + len(body[i : i + piece]) / (args.rate_mbps * 1e6)
                wait = due - time.monotonic()
                if wait > 0:
                    time.sleep(wait)

        def do_GET(self):
            with lock:
                in_flight[0] += 1
                if in_flight[0] > in_flight[1]:
                    in_flight[1] = in_flight[0]
                    if args.peak_file:
                        with open(args.peak_file, "w") as peak:
                            peak.write(f"{in_flight[1]}\n")
            try:
                self.answer()
            finally:
                with lock:
                    in_flight[0] -= 1

        def answer(self):
            last_request[0] = time.monotonic()
            if args.latency_ms > 0:
                time.sleep(args.latency_ms / 1000.0)
            name = self.path.split("?")[0].rsplit("/", 1)[-1]
            rng = self.headers.get("Range")
            fault = set(faults.get(name, "").split("+"))
            with lock:
                first = name not in seen
                seen.add(name)
            path = os.path.join(args.dir, name)
            if "missing" in fault or not os.path.isfile(path):
                self.record(name, rng, 404)
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            redirect = {"toftp": f"ftp://127.0.0.1/{name}", "tofile": "file:///etc/hostname"}
            if "moved" in fault and first:
                redirect["moved"] = f"/moved/{name}"
            target = next((redirect[k] for k in fault if k in redirect), None)
            if target:
                self.record(name, rng, 302)
                self.send_response(302)
                self.send_header("Location", target)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if fault & {"endless", "biglength"}:
                self.record(name, rng, 200)
                self.send_response(200)
                if "biglength" in fault:
                    self.send_header("Content-Length", str(64 << 20))
                else:
                    self.close_connection = True
                self.end_headers()
                with open(path, "rb") as f:
                    data = f.read()  # repeated: a valid multi-member gzip stream that goes on
                try:
                    sent = 0
                    while sent < (64 << 20):
                        chunk = data if "endless" in fault else os.urandom(64 << 10)
                        self.wfile.write(chunk[: (64 << 20) - sent])
                        sent += len(chunk)
                except OSError:
                    pass
                return
            if "loop" in fault:
                self.record(name, rng, 302)
                self.send_response(302)
                self.send_header("Location", self.path)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if "error500" in fault and first:
                self.record(name, rng, 500)
                body = b"try again"
                self.send_response(500)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            with open(path, "rb") as f:
                data = f.read()
            start = 0
            if rng and "norange" not in fault and rng.startswith("bytes=") and rng.endswith("-"):
                start = int(rng[len("bytes="):-1])
            if start > 0 and start >= len(data):
                self.record(name, rng, 416)
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(data)}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body = data[start:]
            status = 206 if start > 0 else 200
            self.record(name, rng, status)
            self.send_response(status)
            if "nolength" in fault:
                self.send_header("Connection", "close")
                self.close_connection = True
            else:
                self.send_header("Content-Length", str(len(body)))
            self.send_header("Accept-Ranges", "none" if "norange" in fault else "bytes")
            if status == 206:
                self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
            self.end_headers()
            if (fault & {"reset", "short"} and first) or "shortever" in fault:
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                if "reset" in fault:  # RST instead of FIN: linger on, zero timeout
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.close_connection = True
                self.connection.close()
                return
            if "late" in fault and first:
                self.wfile.flush()
                time.sleep(8)
            if "stall" in fault:
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                try:
                    while time.monotonic() - started < args.lifetime:
                        time.sleep(0.2)
                        self.wfile.write(b"")  # nothing; the loop ends with the server
                except OSError:
                    pass
                return
            if "trickle" in fault:
                piece = max(1, len(body) // 50)
                for i in range(0, len(body), piece):
                    self.wfile.write(body[i : i + piece])
                    self.wfile.flush()
                    time.sleep(0.01)
                return
            self.send_paced(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if args.tls:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls[0], args.tls[1])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    started = time.monotonic()

    def watchdog():
        while True:
            time.sleep(0.2)
            now = time.monotonic()
            if now - last_request[0] > args.idle or now - started > args.lifetime:
                server.shutdown()
                return

    threading.Thread(target=watchdog, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
