#!/usr/bin/python3
"""client.py — a scripted LSP client for `tlop lsp` (Python 3 standard library only).

    client.py TLOP STDLIB_DIR MODEL

Starts `TLOP lsp`, then: initialize; opens MODEL with an error typed into it and checks
the diagnostic's range (0-based line, UTF-16 columns) and message; fixes it and checks the
diagnostics left (the unused fn); hover on an algorithm (kind, normal form, cost at the
file's `# tlop: set` values); definition of a stdlib fn (a location in STDLIB_DIR);
references; completion (names with kinds, keywords, operators by ASCII name, stdlib
modules inside import "…"); document symbols; formatting; a malformed message, an unknown
method and a text that does not parse, each survived; a claim refuted on save; shutdown
and exit (status 0).
Exits 1 naming the first check that failed."""
import json
import os
import re
import subprocess
import sys


class Server:
    def __init__(self, tlop):
        self.p = subprocess.Popen([tlop, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 1
        self.notes = []

    def send_raw(self, body):
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def send(self, method, params, request=True):
        msg = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            msg["id"] = self.next_id
            self.next_id += 1
        self.send_raw(json.dumps(msg).encode())
        return msg.get("id")

    def read(self):
        length = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("client.py: the server ended its output")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return json.loads(self.p.stdout.read(length))

    def response(self, rid):
        while True:
            msg = self.read()
            if msg.get("id") == rid and "method" not in msg:
                return msg
            self.notes.append(msg)

    def request(self, method, params):
        return self.response(self.send(method, params))

    def diagnostics(self, uri):
        """The next diagnostics published for uri."""
        while True:
            msg = self.notes.pop(0) if self.notes else self.read()
            if msg.get("method") == "textDocument/publishDiagnostics" and msg["params"]["uri"] == uri:
                return msg["params"]["diagnostics"]


def check(what, ok, detail=""):
    if not ok:
        print("FAILED:", what, detail)
        sys.exit(1)
    print("ok:", what)


def position_of(text, needle, skip=0):
    """0-based line and UTF-16 column of the first character of needle."""
    at = text.index(needle) + skip
    line = text.count("\n", 0, at)
    col = len(text[text.rfind("\n", 0, at) + 1:at].encode("utf-16-le")) // 2
    return {"line": line, "character": col}


def main():
    tlop, stdlib, model = sys.argv[1:4]
    path = os.path.abspath(model)
    uri = "file://" + path
    good = open(model, encoding="utf-8").read()
    s = Server(tlop)

    init = s.request("initialize", {"processId": None, "rootUri": None, "capabilities": {},
                                    "initializationOptions": {"stdlib": os.path.abspath(stdlib)}})
    caps = init["result"]["capabilities"]
    check("initialize: capabilities", caps.get("hoverProvider") and caps.get("definitionProvider")
          and caps.get("completionProvider") and caps.get("documentFormattingProvider"), caps)
    s.send("initialized", {}, request=False)

    # An error after a Unicode operator: its column counts UTF-16 units (∥ is one).
    bad = good.replace("∥ hop(m)", "∥ hopp(m)")
    s.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "tlop",
                                                     "version": 1, "text": bad}}, request=False)
    diags = s.diagnostics(uri)
    errors = [d for d in diags if d["severity"] == 1]
    want = position_of(bad, "hopp(m)")
    check("diagnostic of an unknown name", len(errors) == 1 and "hopp" in errors[0]["message"],
          diags)
    check("its range (0-based line, UTF-16 column)",
          errors[0]["range"]["start"] == want and
          errors[0]["range"]["end"] == {"line": want["line"], "character": want["character"] + 4},
          (errors[0]["range"], want))

    s.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                      "contentChanges": [{"text": good}]}, request=False)
    diags = s.diagnostics(uri)
    check("fixed: no error left", not [d for d in diags if d["severity"] == 1], diags)
    unused = [d for d in diags if "never used" in d["message"]]
    check("unused fn warned", len(unused) == 1 and "_unused" in unused[0]["message"] and
          unused[0]["severity"] == 2 and unused[0]["range"]["start"] == position_of(good, "_unused"),
          diags)

    doc = {"textDocument": {"uri": uri}}
    h = s.request("textDocument/hover", dict(doc, position=position_of(good, "bcast")))
    text = h["result"]["contents"]["value"]
    check("hover: kind and definition", "**algorithm** `bcast`" in text and
          "algorithm bcast(m: size, P: count)" in text, text)
    check("hover: normal form", "normal form" in text and "Σ_{i=0}" in text and "L(m, " in text,
          text)
    cost = re.search(r"\*\*cost\*\* on `mine`: ([0-9.]+) (s|ms|µs|ns)", text)
    check("hover: cost at `# tlop: set` values", cost, text)
    # the same number as `tlop eval` at those values
    out = subprocess.run([tlop, "eval", model, "bcast(m, P)", "--set", "m=1MiB,P=16"],
                         capture_output=True, text=True).stdout
    check("hover's cost is tlop eval's", out.startswith("bcast(m, P) = %s %s" % cost.groups()),
          (out, cost.groups()))

    h = s.request("textDocument/hover", dict(doc, position=position_of(good, "T(m);")))
    text = h["result"]["contents"]["value"]
    check("hover on a stdlib fn", "**fn** `T`" in text and "fn T(m: size)" in text and
          "time" in text, text)

    d = s.request("textDocument/definition", dict(doc, position=position_of(good, "T(m);")))
    loc = d["result"]
    want_uri = "file://" + os.path.abspath(os.path.join(stdlib, "taulop/transmission.tlop"))
    stdlib_text = open(os.path.join(stdlib, "taulop/transmission.tlop"), encoding="utf-8").read()
    check("definition into the stdlib", loc and loc["uri"] == want_uri and
          loc["range"]["start"] == position_of(stdlib_text, "T(m: size)"), (loc, want_uri))

    r = s.request("textDocument/references", dict(doc, position=position_of(good, "hop("),
                                                  context={"includeDeclaration": True}))
    lines = sorted(x["range"]["start"]["line"] for x in r["result"])
    want_lines = sorted(position_of(good, n)["line"] for n in ("hop(m: size)", "hop(m) }", "hop(m) >="))
    check("references of a fn", lines == want_lines, (lines, want_lines))

    c = s.request("textDocument/completion", dict(doc, position=position_of(good, "hop(m) }")))
    items = {i["label"]: i for i in c["result"]}
    check("completion: names with kinds", items.get("bcast", {}).get("detail") == "algorithm"
          and items.get("T", {}).get("detail") == "fn" and items.get("S", {}).get("detail") == "param",
          list(items)[:20])
    check("completion: locals", items.get("i", {}).get("detail") == "index" and
          items.get("m", {}).get("detail") == "argument", list(items)[:20])
    check("completion: keywords, channels, operators by ASCII name",
          items.get("stages", {}).get("detail") == "keyword" and
          items.get("shm", {}).get("detail") == "channel" and
          items.get("par", {}).get("insertText") == "∥" and
          items.get("sum", {}).get("insertText") == "Σ", list(items))

    c = s.request("textDocument/completion", dict(doc, position=position_of(good, "taulop/")))
    labels = [i["label"] for i in c["result"]]
    check("completion: stdlib modules inside import \"…\"", "mpich/bcast" in labels and
          "taulop/transmission" in labels, labels)

    sy = s.request("textDocument/documentSymbol", doc)
    names = [(x["name"], x["kind"]) for x in sy["result"]]
    check("document symbols", ("hop", 12) in names and ("bcast", 6) in names and
          ("mine", 2) in names and any(k == 17 for _, k in names), names)

    # A malformed message, an unknown request, a notification and a text that does not parse.
    s.send_raw(b"{not json")
    err = s.read()
    check("malformed message answered, server alive", err.get("error", {}).get("code") == -32700, err)
    u = s.request("workspace/frobnicate", {})
    check("unknown method answered", u.get("error", {}).get("code") == -32601, u)
    s.send("$/unknownNotification", {}, request=False)
    messy = "fn f(x = ;\n" + good.replace("fn hop(m: size) = 2 * T(m);", "fn hop(m: size) = 2 * T(m)  ;")
    s.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3},
                                      "contentChanges": [{"text": messy}]}, request=False)
    diags = s.diagnostics(uri)
    check("a text that does not parse: a syntax error at line 1",
          diags and diags[0]["severity"] == 1 and diags[0]["range"]["start"]["line"] == 0, diags)
    f = s.request("textDocument/formatting", dict(doc, options={"tabSize": 2, "insertSpaces": True}))
    check("formatting a text that does not parse: no edit", f["result"] == [], f)

    s.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": 4},
                                      "contentChanges": [{"text": good.replace("2 * T(m);", "2*T( m ) ;")}]},
           request=False)
    s.diagnostics(uri)
    f = s.request("textDocument/formatting", dict(doc, options={"tabSize": 2, "insertSpaces": True}))
    edits = f["result"]
    check("formatting: one edit giving the canonical text", len(edits) == 1 and
          edits[0]["newText"] == good, edits)

    # On save, prove decides the claims: a false one is an error with its counterexample.
    false = good.replace("claim hop(m) >= T(m);", "claim T(m) >= hop(m);")
    s.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": 5},
                                      "contentChanges": [{"text": false}]}, request=False)
    check("a false claim is not an error while typing",
          not [d for d in s.diagnostics(uri) if d["severity"] == 1])
    s.send("textDocument/didSave", doc, request=False)
    diags = [d for d in s.diagnostics(uri) if d["severity"] == 1]
    check("on save: the claim refuted, with its counterexample", len(diags) == 1 and
          "counterexample" in diags[0]["message"] and
          diags[0]["range"]["start"] == position_of(false, "claim T(m)"), diags)

    check("shutdown", s.request("shutdown", None).get("result", 1) is None)
    s.send("exit", None, request=False)
    check("exit status 0 after shutdown", s.p.wait(timeout=10) == 0)


if __name__ == "__main__":
    main()
