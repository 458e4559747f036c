// One WebSocket to a table (docs/protocol.md §3): hello with the last version seen (and
// protocol 2: a frame may carry a batch of messages), moves with acks, a heartbeat, and
// reconnection with back-off after a drop.
//
// A network that goes away silently keeps a WebSocket "open" for a long time, so the
// socket checks it: a ping every few seconds must be answered within a few seconds, a
// hello by a welcome, a move by its event or refusal. Silence past that, or the browser
// going offline, counts as a drop: the status says so and the socket reconnects.

const FATAL = new Set(["bad_token", "unknown_table", "spectator"]);
/** The protocol version said in hello: 2 takes several messages in one frame (a batch). */
export const PROTOCOL = 2;

/** The heartbeat's timings, in milliseconds. */
export const TIMING = { pingEvery: 5000, answerWithin: 3500, check: 500, maxBackoff: 5000 };

export class TableSocket {
  /**
   * who: {token} to play a seat or {table} to watch; version: the last version seen.
   * onMessage(msg) gets every server message; onStatus(status) gets "connecting",
   * "open", "reconnecting", "offline" or "closed"; onLost() is told when a connection
   * that was open is found dead.
   */
  constructor(who, { version = null, onMessage, onStatus, onLost = () => {} }) {
    this.who = who;
    this.version = version;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onLost = onLost;
    this.ackId = 0;
    this.attempt = 0;
    this.stopped = false;
    this.ws = null;
    this.welcomed = false;
    this.timer = null;
    this.retry = null;
    this.lastHeard = 0;
    this.lastPing = 0;
    this.waitingSince = null; // when a message that needs an answer was sent
    this.onOffline = () => this.lose("offline");
    this.onOnline = () => this.reconnectNow();
    window.addEventListener("offline", this.onOffline);
    window.addEventListener("online", this.onOnline);
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.retry);
    this.onStatus(this.attempt === 0 ? "connecting" : this.offlineNow() ? "offline" : "reconnecting");
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    let ws;
    try {
      ws = new WebSocket(`${scheme}://${location.host}/ws`);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    this.welcomed = false;
    this.waitingSince = Date.now(); // the open and the welcome must come
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      this.waitingSince = Date.now();
      ws.send(JSON.stringify({ type: "hello", ...this.who, version: this.version, protocol: PROTOCOL }));
    };
    ws.onmessage = (event) => {
      if (ws === this.ws) this.receive(event.data);
    };
    ws.onclose = () => {
      if (ws === this.ws) this.lose("closed");
    };
    ws.onerror = () => ws.close();
    clearInterval(this.timer);
    this.timer = setInterval(() => this.check(), TIMING.check);
  }

  offlineNow() {
    return navigator.onLine === false;
  }

  /** One frame: a message, or (protocol 2) a batch of them in order. */
  receive(text) {
    this.lastHeard = Date.now();
    this.waitingSince = null;
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      return;
    }
    if (!Array.isArray(parsed)) {
      this.handle(parsed);
      return;
    }
    for (const msg of parsed) {
      try {
        this.handle(msg);
      } catch (error) {
        setTimeout(() => { throw error; }, 0); // reported, and the rest of the batch still handled
      }
    }
  }

  handle(msg) {
    if (msg === null || typeof msg !== "object") return;
    if (msg.type === "welcome" && !this.welcomed) {
      this.welcomed = true;
      this.attempt = 0;
      this.onStatus("open");
    }
    if (msg.type === "event" || msg.type === "sync") this.version = msg.version;
    const refused = msg.type === "error" && msg.ack === undefined && !this.welcomed;
    if (msg.type === "error" && FATAL.has(msg.code) && msg.ack === undefined) this.stopped = true;
    this.onMessage(msg);
    // a hello refused for now (the table changing servers, storage down): try again soon,
    // on a new connection, rather than wait out the silence
    if (refused && !this.stopped) this.lose("refused");
  }

  /** The heartbeat: ping when idle, and give up on a connection that stays silent. */
  check() {
    const ws = this.ws;
    if (!ws || this.stopped) return;
    const now = Date.now();
    if (this.waitingSince !== null && now - this.waitingSince > TIMING.answerWithin) {
      this.lose("silent");
      return;
    }
    if (ws.readyState === WebSocket.OPEN && this.welcomed && now - Math.max(this.lastHeard, this.lastPing) > TIMING.pingEvery) {
      this.lastPing = now;
      this.sendExpectingAnswer({ type: "ping" });
    }
  }

  /** The connection is dead (closed, silent, or the browser offline): reconnect. */
  lose(why) {
    const ws = this.ws;
    const wasOpen = this.welcomed;
    this.ws = null;
    this.welcomed = false;
    this.waitingSince = null;
    clearInterval(this.timer);
    if (ws) {
      ws.onclose = null;
      try {
        ws.close();
      } catch {
        // already closing
      }
    }
    if (this.stopped) {
      this.onStatus("closed");
      return;
    }
    if (wasOpen || why === "offline") this.onLost(why);
    this.scheduleRetry();
  }

  scheduleRetry() {
    this.attempt += 1;
    this.onStatus(this.offlineNow() ? "offline" : "reconnecting");
    clearTimeout(this.retry);
    const delay = Math.min(TIMING.maxBackoff, 300 * 2 ** Math.min(this.attempt - 1, 5));
    this.retry = setTimeout(() => this.connect(), delay);
  }

  /** Try again at once (the browser says it is online again). */
  reconnectNow() {
    if (this.stopped || this.welcomed) return;
    if (this.ws) this.lose("retry");
    clearTimeout(this.retry);
    this.connect();
  }

  send(message) {
    if (this.ws && this.welcomed && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  sendExpectingAnswer(message) {
    const sent = this.send(message);
    if (sent && this.waitingSince === null) this.waitingSince = Date.now();
    return sent;
  }

  /** Send a move against the last version seen; returns its ack id, or null if offline. */
  move(text) {
    this.ackId += 1;
    const sent = this.sendExpectingAnswer({ type: "move", move: text, version: this.version ?? 0, ack: this.ackId });
    return sent ? this.ackId : null;
  }

  get open() {
    return this.welcomed;
  }

  /** Drop the connection on purpose (the network tests use it too) and reconnect. */
  reconnect() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.retry);
    window.removeEventListener("offline", this.onOffline);
    window.removeEventListener("online", this.onOnline);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
    }
  }
}
