"""What a page costs its browser's main thread per websocket message, read inside Chromium
(bench/cafe.py): the dashboard's page, and beside it in the same run a bare page that only
receives the same feed and parses each message (the floor any page pays: the browser's own
receiving and its frame).

``COST_JS`` is added to a page before its own scripts run. While ``benchCost.on`` is true it
keeps, in ``benchCost``:

- ``handler``: ms of each websocket ``message`` handler (parse, keep the state, ask for a frame);
- ``frame``: ms of each animation-frame callback the page asked for (the tiles drawn);
- ``painted``: ms from each such callback starting to its frame painted (a task posted from the
  frame runs once the frame's style, layout and paint are done);
- ``toFrame``: ms from each message's handler starting to the end of the script work of the
  frame it is drawn in: the frame the page asked for (a message the page asks none for, a table
  out of view, is not timed: the bench asks no frame of the page), or on the bare page
  (``askFrames``) a frame asked for it;
- ``toPaint``: ms from each message to that frame painted;
- ``longTasks``: the durations of the main thread's tasks over 50 ms (PerformanceObserver);
- ``everyLong``: [start, duration] of every such task since the page opened, recording or not
  (``benchLongSince(t)``: those that began at ``performance.now()`` ``t`` or later);
- ``longFrames``: what each frame over 50 ms since the page opened did (Chromium's Long
  Animation Frames: its scripts' ms by what called them, its frame callbacks, its style, layout
  and paint; ``benchLongFramesSince(t)``);
- ``messages``, ``since``: how many messages (each in a list of what queued up counts), and the
  ``performance.now()`` recording began.
"""

from __future__ import annotations

from bench.timing import percentile

COST_JS = """(() => {
  const cost = window.benchCost = {on: false, askFrames: false, handler: [], frame: [], toFrame: [],
                                   toPaint: [], painted: [], longTasks: [], everyLong: [], longFrames: [],
                                   messages: 0, since: 0};
  const nativeFrame = window.benchNativeFrame = window.requestAnimationFrame.bind(window);
  const after = new MessageChannel();
  let arrivals = [], painting = [], asked = false, pageAsked = false, frameBegan = [];
  after.port1.onmessage = () => {
    const now = performance.now();
    for (const t of painting) cost.toPaint.push(now - t);
    for (const t of frameBegan) cost.painted.push(now - t);
    painting = [];
    frameBegan = [];
  };
  const frameDone = () => {  // after the frame's callbacks: its scripts are done
    asked = false;
    const now = performance.now();
    for (const t of arrivals) cost.toFrame.push(now - t);
    painting.push(...arrivals);
    arrivals = [];
    after.port2.postMessage(0);
  };
  window.requestAnimationFrame = (callback) => {
    pageAsked = true;
    return nativeFrame((t) => {
      pageAsked = false;
      const began = performance.now();
      try { callback(t); } finally {
        if (cost.on) {
          cost.frame.push(performance.now() - began);
          frameBegan.push(began);
          frameDone();
        }
      }
    });
  };
  const count = (data) => typeof data === 'string' && data[0] === '['
    ? (data.match(/\\{"type":"/g) || []).length : 1;
  const timed = (handler) => function (event) {
    const began = performance.now();
    try { return handler.call(this, event); } finally {
      if (cost.on) {
        cost.handler.push(performance.now() - began);
        const n = count(event.data);  // a list of what queued up: each of its messages counts
        cost.messages += n;
        // Timed to a frame: the one the page asked for (a message it draws none for, a table
        // out of view, asks none), or the bare page's, asked here.
        if (cost.askFrames || pageAsked) for (let i = 0; i < n; i++) arrivals.push(began);
        if (cost.askFrames && !asked) { asked = true; nativeFrame(frameDone); }
      }
    }
  };
  const onmessage = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  Object.defineProperty(WebSocket.prototype, 'onmessage', {
    get() { return onmessage.get.call(this); },
    set(handler) { onmessage.set.call(this, handler && timed(handler)); },
  });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      cost.everyLong.push([e.startTime, e.duration]);
      if (cost.on) cost.longTasks.push(e.duration);
    }
  }).observe({type: 'longtask'});
  window.benchLongSince = (t) => cost.everyLong.filter(([start]) => start >= t);
  new PerformanceObserver((list) => {  // what each frame over 50 ms did (Long Animation Frames)
    for (const e of list.getEntries()) {
      const scripts = {};
      for (const s of e.scripts) {
        const key = `${s.invokerType} ${s.invoker}`.slice(0, 60);
        scripts[key] = (scripts[key] || 0) + s.duration;
      }
      const end = e.startTime + e.duration;
      cost.longFrames.push({at: e.startTime, ms: e.duration, blocking: e.blockingDuration, scripts,
                            callbacks: e.renderStart ? e.styleAndLayoutStart - e.renderStart : 0,
                            rendering: e.styleAndLayoutStart ? end - e.styleAndLayoutStart : 0});
    }
  }).observe({type: 'long-animation-frame'});
  window.benchLongFramesSince = (t) => cost.longFrames.filter((f) => f.at >= t);
  window.benchCostStart = () => {
    Object.assign(cost, {handler: [], frame: [], toFrame: [], toPaint: [], painted: [], longTasks: [],
                         messages: 0, since: performance.now(), on: true});
  };
  window.benchCostStop = () => {
    cost.on = false;
    return {...cost, everyLong: undefined, longFrames: undefined, elapsed: performance.now() - cost.since};
  };
})()"""

#: The bare page's script, run in a page of the dashboard's own origin (a page served from
#: elsewhere may not open a socket to a loopback address): the same feed received and each
#: message parsed, nothing drawn.
BARE_JS = """() => {
  window.kept = 0;
  benchCost.askFrames = true;  // it draws nothing: each message timed to a frame asked for it
  const ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onmessage = (e) => { window.kept += JSON.parse(e.data) ? 1 : 0; };
}"""

#: Where the bare page runs: an address of the dashboard's that is no page of its own.
BARE_PATH = "/bench-bare-feed"


def summary(cost: dict) -> dict[str, float]:
    """The p50 / p99 of each split (ms; the page's frames, callback to painted, their max too),
    the script time per message and the share of the main thread the page's scripts took.

    >>> s = summary({"handler": [0.1, 0.3], "frame": [2.0], "painted": [4.0], "toFrame": [5.0, 9.0],
    ...              "toPaint": [6.0, 11.0], "longTasks": [], "messages": 2, "elapsed": 1000.0})
    >>> s["handler_p99_ms"], s["script_per_message_ms"], s["script_busy_pct"], s["long_tasks"]
    (0.3, 1.2, 0.24, 0)
    >>> summary({**dict.fromkeys(["handler", "frame", "painted", "toFrame", "toPaint"], [1.0]),
    ...          "longTasks": [60.0, 80.0], "messages": 1, "elapsed": 1.0})["longest_task_ms"]
    80.0
    """
    out: dict[str, float] = {}
    for name in ("handler", "frame", "painted", "toFrame", "toPaint"):
        for q, p in (("p50", 0.5), ("p99", 0.99)):
            out[f"{name}_{q}_ms"] = round(percentile(cost[name], p), 2)
    out["painted_max_ms"] = round(max(cost["painted"], default=0.0), 1)
    script = sum(cost["handler"]) + sum(cost["frame"])
    messages = max(1, cost["messages"])
    out.update(
        messages=cost["messages"],
        frames=len(cost["frame"]),
        script_per_message_ms=round(script / messages, 3),
        script_busy_pct=round(100 * script / max(1.0, cost["elapsed"]), 2),
        long_tasks=len(cost["longTasks"]),
        long_tasks_ms=round(sum(cost["longTasks"]), 1),
        longest_task_ms=round(max(cost["longTasks"], default=0.0), 1),
    )
    return out


#: Chrome's trace categories for the renderer's main thread.
TRACE_CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "toplevel",
    "v8",
    "blink.user_timing",
]
#: Trace events by what they are (their own names vary across Chromium versions: each listed).
KINDS = {
    "scripts": ("FunctionCall", "EvaluateScript", "v8.compile", "v8.compileModule", "V8.ParseFunction"),
    "style": ("UpdateLayoutTree", "RecalculateStyles", "ParseAuthorStyleSheet"),
    "layout": ("Layout",),
    "paint": ("PrePaint", "Paint", "PaintImage", "Layerize", "UpdateLayer", "Commit", "CompositeLayers"),
    "gc": ("MinorGC", "MajorGC", "BlinkGC.AtomicPhase", "V8.GCScavenger", "V8.GCFinalizeMC"),
}
#: A garbage collection, each pause whole (the other GC names are its parts).
GC_PAUSES = ("MajorGC", "MinorGC")
#: A task of the main thread that runs the event loop (the "RunTask" of each Chromium).
TASKS = ("RunTask", "ThreadControllerImpl::RunTask", "ThreadPool_RunTask")


def _spans(events: list[dict], pid: int, tid: int) -> list[tuple[str, float, float, float]]:
    """(name, start, end, CPU) in ms of one thread's complete and begin/end events: the CPU the
    thread used in each (its wall time where the trace has no thread clock).

    >>> _spans([{"pid": 1, "tid": 1, "ph": "X", "name": "Paint", "ts": 1000, "dur": 3000, "tdur": 500},
    ...         {"pid": 1, "tid": 1, "ph": "B", "name": "Layout", "ts": 5000, "tts": 100},
    ...         {"pid": 1, "tid": 1, "ph": "E", "name": "Layout", "ts": 7000, "tts": 1100}], 1, 1)
    [('Paint', 1.0, 4.0, 0.5), ('Layout', 5.0, 7.0, 1.0)]
    """
    spans, open_ = [], {}
    for e in events:
        if e.get("pid") != pid or e.get("tid") != tid:
            continue
        if e.get("ph") == "X" and "dur" in e:
            spans.append(
                (e["name"], e["ts"] / 1000, (e["ts"] + e["dur"]) / 1000, e.get("tdur", e["dur"]) / 1000)
            )
        elif e.get("ph") == "B":
            open_.setdefault(e["name"], []).append(e)
        elif e.get("ph") == "E" and open_.get(e["name"]):
            b = open_[e["name"]].pop()
            cpu = e["tts"] - b["tts"] if "tts" in e and "tts" in b else e["ts"] - b["ts"]
            spans.append((e["name"], b["ts"] / 1000, e["ts"] / 1000, cpu / 1000))
    return spans


def _main_thread(events: list[dict], frame: str) -> tuple[int, int] | None:
    """(pid, tid) of the renderer main thread drawing the page whose main frame is ``frame``."""
    pid = next(
        (e["pid"] for e in events if (e.get("args", {}).get("data") or {}).get("frame") == frame), None
    )
    for e in events:
        if (
            e.get("ph") == "M"
            and e.get("name") == "thread_name"
            and e["args"].get("name") == "CrRendererMain"
        ):
            if e["pid"] == pid:
                return e["pid"], e["tid"]
    return None


def frame_id(page) -> str:
    """The main frame's id in Chrome's traces (asked of the DevTools protocol)."""
    session = page.context.new_cdp_session(page)
    try:
        return session.send("Page.getFrameTree")["frameTree"]["frame"]["id"]
    finally:
        session.detach()


def trace_summary(trace: bytes, frame: str, messages: int) -> dict[str, float]:
    """The main thread of the page whose main frame is ``frame`` in a Chrome trace: the CPU
    (ms) of its tasks in all, of each kind (``KINDS``; style and layout forced by a script, the
    page's thrash, apart) and per message received, the longest garbage collection; its tasks
    over 50 ms (wall clock: on a busy machine mostly the thread waiting for a core), the
    longest's wall and CPU time, the most CPU a task took, and the CPU of those tasks in all and
    by kind (what they were)."""
    import json

    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    found = _main_thread(events, frame)
    if found is None:
        return {}
    spans = _spans(events, *found)
    task = next((name for name in TASKS if any(s[0] == name for s in spans)), "")
    tasks = [s for s in spans if s[0] == task]  # one name: a task is traced under each
    calls = sorted((a, b) for name, a, b, _ in spans if name == "FunctionCall")
    out = {k: 0.0 for k in (*KINDS, "forced_style_layout")}
    for name, a, b, cpu in spans:
        kind = next((k for k, names in KINDS.items() if name in names), None)
        if kind is None:
            continue
        if kind in ("style", "layout") and any(c <= a and b <= d for c, d in calls):
            out["forced_style_layout"] += cpu
        out[kind] += cpu
    busy = sum(cpu for *_, cpu in tasks)
    longest = max(tasks, key=lambda s: s[2] - s[1], default=("", 0.0, 0.0, 0.0))
    long = [(a, b) for _, a, b, _ in tasks if b - a > 50]
    within = {k: 0.0 for k in KINDS}  # what the long tasks did, CPU
    for name, a, b, cpu in spans:
        kind = next((k for k, names in KINDS.items() if name in names), None)
        if kind and any(c <= a and b <= d for c, d in long):
            within[kind] += cpu
    return {
        "busy_ms": round(busy, 1),
        **{f"{k}_ms": round(v, 1) for k, v in out.items()},
        "busy_per_message_ms": round(busy / max(1, messages), 3),
        "gc_longest_ms": round(max((cpu for name, *_, cpu in spans if name in GC_PAUSES), default=0.0), 1),
        "long_tasks": sum(1 for _, a, b, _ in tasks if b - a > 50),
        "longest_task_ms": round(longest[2] - longest[1], 1),
        "longest_task_cpu_ms": round(longest[3], 1),
        "heaviest_task_cpu_ms": round(max((cpu for *_, cpu in tasks), default=0.0), 1),
        "long_tasks_cpu_ms": round(sum(cpu for _, a, b, cpu in tasks if b - a > 50), 1),
        **{f"long_tasks_{k}_ms": round(v, 1) for k, v in within.items()},
    }
