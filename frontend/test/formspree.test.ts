import { SubmissionError } from "@formspree/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { displayLines, sendSignup, toOutcome } from "../src/shared/formspree";

const target = { endpoint: "https://forms.test", formId: "abc123" };

function replyWith(body: unknown) {
  const fetchMock = vi.fn(async (..._args: Parameters<typeof fetch>) => new Response(JSON.stringify(body)));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("display rule", () => {
  it("prefixes email messages with Email and form messages with Form, joined with commas", () => {
    const error = new SubmissionError(
      { field: "email", code: "TYPE_EMAIL", message: "a" },
      { field: "email", code: "REQUIRED_FIELD_EMPTY", message: "b" },
      { field: "zip", code: "TYPE_NUMERIC", message: "hidden" },
      { code: "EMPTY", message: "c" },
      { code: "BLOCKED", message: "d" },
    );
    expect(displayLines(error)).toEqual(["Email a, b", "Form c, d"]);
  });

  it("shows nothing for errors on other fields only", () => {
    expect(displayLines(new SubmissionError({ field: "phone", code: "TYPE_TEXT", message: "x" }))).toEqual([]);
  });
});

describe("outcome", () => {
  it("maps codes outside the catalogue to UNSPECIFIED, keeps catalogue codes", () => {
    const outcome = toOutcome(
      new SubmissionError(
        { field: "email", code: "TYPE_EMAIL", message: "a" },
        { field: "email", code: "MADE_UP", message: "b" },
        { code: "FORM_NOT_FOUND", message: "c" },
        { code: "TYPE_EMAIL", message: "field code used at form level" },
        { message: "no code" },
      ),
    );
    expect(outcome).toEqual({
      kind: "error",
      lines: ["Email a, b", "Form c, field code used at form level, no code"],
      emailRejected: true,
      codes: ["TYPE_EMAIL", "UNSPECIFIED", "FORM_NOT_FOUND", "UNSPECIFIED", "UNSPECIFIED"],
    });
  });
});

describe("sendSignup", () => {
  it("posts to endpoint/f/formId and reports success on next", async () => {
    const fetchMock = replyWith({ next: "/thanks", ok: true });
    const data = new FormData();
    data.append("email", "a@b.test");
    expect(await sendSignup(data, target)).toEqual({ kind: "success" });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe("https://forms.test/f/abc123");
    expect(init?.body).toBe(data);
  });

  it("posts to the page's own origin when the endpoint is empty (the preview's stand-in)", async () => {
    const fetchMock = replyWith({ next: "/thanks" });
    await sendSignup(new FormData(), { endpoint: "", formId: "abc123" });
    expect(fetchMock.mock.calls[0]?.[0]).toBe(`${window.location.origin}/f/abc123`);
    expect(window.location.origin).not.toBe("https://formspree.io");
  });

  it("reports a result the client does not expect (a card-payment reply) as an error, not a crash", async () => {
    replyWith({ stripe: { paymentIntentClientSecret: "pi_secret" }, resubmitKey: "k" });
    const outcome = await sendSignup(new FormData(), target);
    expect(outcome.kind).toBe("error");
    if (outcome.kind === "error") expect(outcome.lines).toEqual(["Form Unexpected submission result (kind: stripePluginPending)"]);
  });

  it("times out with the given message and calls back on a late success", async () => {
    vi.useFakeTimers();
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal("fetch", vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))));
    const late = vi.fn();
    const pending = sendSignup(new FormData(), target, { timeoutMs: 1000, timeoutMessage: "Too slow.", onLateSuccess: late });
    await vi.advanceTimersByTimeAsync(999);
    let settled = false;
    void pending.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ kind: "error", lines: ["Form Too slow."] });
    expect(late).not.toHaveBeenCalled();
    answer(new Response(JSON.stringify({ next: "/thanks" })));
    await vi.waitFor(() => expect(late).toHaveBeenCalledTimes(1));
  });

  it("does not call back when the late reply is an error", async () => {
    vi.useFakeTimers();
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal("fetch", vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))));
    const late = vi.fn();
    const pending = sendSignup(new FormData(), target, { timeoutMs: 10, onLateSuccess: late });
    await vi.advanceTimersByTimeAsync(10);
    await pending;
    answer(new Response(JSON.stringify({ error: "nope" })));
    await vi.advanceTimersByTimeAsync(10);
    await Promise.resolve();
    expect(late).not.toHaveBeenCalled();
  });

  it("clears its timer when the reply comes in time", async () => {
    vi.useFakeTimers();
    replyWith({ next: "/thanks" });
    await sendSignup(new FormData(), target, { timeoutMs: 5000 });
    expect(vi.getTimerCount()).toBe(0);
  });
});
