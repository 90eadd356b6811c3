#!/usr/bin/env python3
"""A stand-in collector that answers the way Python's http.server does: each answer's head and
body in two writes on a socket with Nagle's algorithm on. It acknowledges every upload batch
(X-Hermes-Batch-Ack) and answers 304 to configuration fetches; it stores nothing. Prints its port.

    python3 scripts/split-answers-server.py &            # prints the port
    .build/release/hermes-burst-probe --storage /tmp/probe --records 20000 \
        --collector http://127.0.0.1:PORT                 # prints "delivery <s> <cpu s> <bytes>"

An SDK that acknowledges what it receives at once (TCP_QUICKACK before each read on Linux) gets
each answer in about a millisecond; one that lets the kernel delay its acknowledgement waits about
40 ms per upload (docs/benchmarks.md, "Answers written in two parts").
"""
import http.server, socketserver
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        self.send_response(304); self.send_header("Content-Length", "0"); self.end_headers()
    def do_POST(self):
        n = int(self.headers.get("Content-Length", 0)); self.rfile.read(n)
        body = b'{}'
        self.send_response(200); self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Hermes-Batch-Ack", self.headers.get("X-Hermes-Batch-Id", "")); self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a): pass
class S(socketserver.ThreadingMixIn, http.server.HTTPServer): daemon_threads = True
s = S(("127.0.0.1", 0), H); print(s.server_address[1], flush=True); s.serve_forever()
