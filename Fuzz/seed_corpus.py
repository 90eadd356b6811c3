#!/usr/bin/env python3
"""Writes the fuzzer's seed corpus: python3 Fuzz/seed_corpus.py VECTORS_JSON OUTPUT_DIR

Each seed is a selector byte (a FuzzTarget raw value, Fuzz/Sources/HermesFuzz/FuzzTarget.swift)
followed by that target's data: every test vector's bytes and its meta lines, and a few
configuration documents. Tests/HermesWireTests/Packet/FuzzRegressionTests.swift decodes the
vectors framed the same way.
"""
import json
import pathlib
import sys

V1_META, V1_PAYLOAD, V2_META, V2_PAYLOAD, SNIFFED, CONFIGURATION, SEALED_GZIP, SEALED_META_BLOCK, PAYLOAD_SLOTS, SYNC_REQUEST, META_CHECK = range(11)

PACKET_TARGETS = {
    ("v1", "meta"): V1_META,
    ("v1", "payload"): V1_PAYLOAD,
    ("v2-aesgcm", "meta"): V2_META,
    ("v2-aesgcm", "payload"): V2_PAYLOAD,
}

# What GET /v1/config serves with no configuration (ConfigurationDocument.builtIn), as jsonBytes() writes it.
BUILT_IN = json.dumps({
    "revision": 0,
    "namespaces": {"hermes": {
        "url": None, "isUpload": True, "isGather": True, "isUpdateClear": True,
        "maxBodyMByte": 1.0, "periodicTimerSecond": 5.0, "maxItem": 100, "maxFlowMByte": 20.0,
        "expirationDay": 15.0, "maxCacheCount": 10000, "flushCount": 100, "maxMetaKByte": 10.0,
        "monitorList": [
            {"type": "appCrash", "onlyWifi": False, "isRealtime": True, "isUploadPayload": True, "sampleRate": 1.0},
        ] + [
            {"type": name, "onlyWifi": False, "isRealtime": False, "isUploadPayload": False, "sampleRate": 1.0}
            for name in ("appLag", "appBoot", "net", "netError")
        ],
    }},
}, sort_keys=True, separators=(",", ":"))

# A namespace with every value out of range, escapes and a fractional count, for clamping.
OUT_OF_RANGE = (
    '{"revision": 12, "namespaces": {"JZ\\u00e9": {"url": "https://c.example/\\ud83d\\ude00",'
    ' "maxBodyMByte": 0, "periodicTimerSecond": 1e9, "maxItem": -3.5, "maxFlowMByte": -1,'
    ' "expirationDay": 0.5, "maxCacheCount": 1E12, "flushCount": 0, "maxMetaKByte": 65,'
    ' "monitorList": [{"type": "pay", "isRealtime": true, "sampleRate": 2}]}}}'
)


# Sync requests as devices send them: an empty one, and one with a create, an update and a
# delete (the wire's form: per type its id lists and each record's attributes with its revision).
SYNC_REQUESTS = (
    ("empty", '{"changeSets":[],"clientID":"ipad-7","maxRevision":0,"schemaVersion":1}'),
    ("changes", '{"changeSets":[{"notes":{"attributes":{"-1":{"revision":0,"score":1,"title":"a\\u00e9"},'
     '"31":{"revision":38},"7":{"revision":39,"title":"b"}},"create":[-1],"delete":[31],"update":[7]},'
     '"sequence":3,"types":["notes"]}],"clientID":"ipad-7","cursor":"c1","maxRevision":40,"schemaVersion":2}'),
)


# Valid meta lines of namespace JZ (the one the meta check target checks against), with the
# members it keeps, a repeated checked field, and member names written with escapes.
META_LINES = (
    ("net", '{"REPORT_ID":"r1","NAMESPACE":"JZ","MONITOR_TYPE":"net","IS_BIZ":true,"CREATE_TIME":5,'
            '"USER_ID":"u","durationMs":12.5,"status":503,"lost":{"full":3},"x":[1,{"y":"\\u00e9"}]}'),
    ("repeated", '{"REPORT_ID":"a","NAMESPACE":"JZ","MONITOR_TYPE":"t","IS_BIZ":false,"CREATE_TIME":-7,"REPORT_ID":"b"}'),
    ("escaped", '{"REPORT\\u005fID":"r","\\u004eAMESPACE":"JZ","MONITOR_TYPE":"t","IS_BIZ":true,"CREATE_TIME":1,"USER_\\u0049D":"\\u00e9"}'),
)


def main(vectors_path: str, output: str) -> None:
    out = pathlib.Path(output)
    out.mkdir(parents=True, exist_ok=True)

    def seed(name: str, target: int, data: bytes) -> None:
        (out / f"seed-{name}").write_bytes(bytes([target]) + data)

    for vector in json.loads(pathlib.Path(vectors_path).read_text()):
        name = vector["name"].replace(" ", "-")
        body = bytes.fromhex(vector["output"])
        if vector["format"] == "gzip":
            seed(name, SEALED_GZIP, body)
        else:
            seed(name, PACKET_TARGETS[(vector["format"], vector["kind"])], body)
            if vector["format"] != "v1":  # a v1 body does not say its kind: sniffing rejects it
                seed(f"{name}-sniffed", SNIFFED, body)
        seed(f"{name}-meta-block", SEALED_META_BLOCK, "\n".join(vector["metaLines"]).encode())
        for index, line in enumerate(vector["metaLines"]):
            seed(f"{name}-meta-{index}", META_CHECK, line.encode())

    for name, document in (("empty", "{}"), ("built-in", BUILT_IN), ("out-of-range", OUT_OF_RANGE)):
        seed(f"config-{name}", CONFIGURATION, document.encode())

    # A slot count, then the slots' bytes (split evenly): 3 slots, and 9 (past the harness's 8).
    seed("slots-3", PAYLOAD_SLOTS, bytes([2]) + b"0 Shop main\n1 Shop crash\n2 libc abort")
    seed("slots-9", PAYLOAD_SLOTS, bytes([8]) + bytes(range(90)))
    for name, request in SYNC_REQUESTS:
        seed(f"sync-{name}", SYNC_REQUEST, request.encode())
    for name, line in META_LINES:
        seed(f"meta-{name}", META_CHECK, line.encode())


if __name__ == "__main__":
    main(*sys.argv[1:])
