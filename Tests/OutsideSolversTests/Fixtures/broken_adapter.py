#!/usr/bin/env python3
"""A deliberately broken outside-solver adapter for LayoutBench's tests.

Usage: broken_adapter.py MODE MARKER. It answers like the z3 adapter, except on systems
with 7k+3 rows, where MODE decides: `crash` (SIGSEGV), `hang` (sleeps forever, with a child
`sh` that sleeps too: killing the process group must end both), `garbage` (a line that is
not JSON), `wrong-id` (a reply to another request). MODE `version` says hello with protocol
99; `silent` never says hello. MARKER only tags the command line, so the test can look for
leftover processes.
"""
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts", "solvers"))

import adapter_protocol  # noqa: E402
from adapter_protocol import claim_stdout, serve  # noqa: E402

claim_stdout()
from z3_adapter import Z3Adapter  # noqa: E402

MODE = sys.argv[1]
MARKER = sys.argv[2] if len(sys.argv) > 2 else "none"


class Broken(Z3Adapter):
    name = "broken-" + MODE

    def handle(self, request):
        if request.get("type") == "solve" and len(request.get("rows", [])) % 7 == 3:
            if MODE == "crash":
                os.kill(os.getpid(), signal.SIGSEGV)
            if MODE == "hang":
                subprocess.Popen(["sh", "-c", "sleep 600; : " + MARKER])
                while True:
                    time.sleep(1)
            if MODE == "garbage":
                adapter_protocol._protocol.write("this is not JSON {\n")
                adapter_protocol._protocol.flush()
                return {"type": "ok"}
            if MODE == "wrong-id":
                adapter_protocol._protocol.write('{"type":"ok","id":-5}\n')
                adapter_protocol._protocol.flush()
                return {"type": "ok"}
            if MODE == "log":
                reply = super().handle(request)
                reply["log"] = ["CRITICAL Gtk: gtk_widget_size_allocate: assertion 'GTK_IS_WIDGET (widget)' failed"]
                return reply
        return super().handle(request)


if MODE == "silent":
    while True:
        time.sleep(1)
if MODE == "version":
    adapter_protocol.PROTOCOL_VERSION = 99

serve(Broken())
