import { act, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import Contact from "../src/islands/contact";
import { choosePlan } from "../src/shared/plan";
import type { ContactProps } from "../src/shared/island-types";
import { contactProps } from "./fixtures/props";
import { recordPlanChanges } from "./helpers";

type FetchArgs = Parameters<typeof fetch>;

/** Stubs the global fetch the Formspree client uses; every call answers `status` with `body`. */
function replyWith(status: number, body: unknown) {
  const fetchMock = vi.fn(async (..._args: FetchArgs) =>
    new Response(typeof body === "string" ? body : JSON.stringify(body), {
      status,
      headers: { "Content-Type": "application/json" },
    }),
  );
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

/** A fetch that answers only when the test says so. */
function replyLater() {
  let answer: (response: Response) => void = () => undefined;
  const fetchMock = vi.fn(
    (..._args: FetchArgs) =>
      new Promise<Response>((resolve) => {
        answer = resolve;
      }),
  );
  vi.stubGlobal("fetch", fetchMock);
  return { fetchMock, answer: (status: number, body: unknown) => answer(new Response(JSON.stringify(body), { status })) };
}

const typed = {
  firstName: "Ada",
  lastName: "Lovelace",
  address: "12 Main Street",
  zip: "57006",
  email: "ada@example.com",
  phone: "605-555-0100",
};

function setup(props: ContactProps = contactProps) {
  const user = userEvent.setup();
  const view = render(
    <section id="contact">
      <Contact {...props} />
    </section>,
  );
  const form = view.container.querySelector("form") as HTMLFormElement;
  const submit = screen.getByRole("button", { name: props.submit });
  return { user, form, submit, container: view.container };
}

async function typeForm(user: UserEvent) {
  await user.type(screen.getByLabelText("First name"), typed.firstName);
  await user.type(screen.getByLabelText("Last name"), typed.lastName);
  await user.type(screen.getByLabelText("Street address"), typed.address);
  await user.type(screen.getByLabelText("ZIP code"), typed.zip);
  await user.type(screen.getByLabelText(contactProps.fields.email), typed.email);
  await user.type(screen.getByLabelText("Mobile phone"), typed.phone);
}

/** Faster than typing, for tests about the reply rather than the typing. */
function fillForm() {
  for (const [name, value] of Object.entries(typed)) {
    (document.getElementById(name) as HTMLInputElement).value = value;
  }
}

function alertLines(): string[] {
  return Array.from(screen.getByRole("alert").querySelectorAll("p")).map((p) => p.textContent ?? "");
}

function fieldValues(): Record<string, string> {
  return Object.fromEntries(Object.keys(typed).map((name) => [name, (document.getElementById(name) as HTMLInputElement).value]));
}

afterEach(() => {
  vi.useRealTimers();
});

describe("contact island: content and form fields", () => {
  it("shows heading, lead, phone and email links from props", () => {
    setup();
    expect(screen.getByRole("heading", { level: 2, name: "Start your service" })).toBeInTheDocument();
    expect(screen.getByText(contactProps.lead)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "(605) 555-0142" })).toHaveAttribute("href", "tel:+16055550142");
    expect(screen.getByRole("link", { name: "hello@curbside-brookings.example" })).toHaveAttribute(
      "href",
      "mailto:hello@curbside-brookings.example",
    );
    expect(screen.getByRole("link", { name: contactProps.privacyLink })).toHaveAttribute("href", "/privacypolicy");
    expect(screen.getByText(contactProps.privacyNote, { exact: false })).toBeInTheDocument();
  });

  it("posts natively to the form service without JS", () => {
    const { form } = setup();
    expect(form).toHaveAttribute("action", `${contactProps.endpoint}/f/${contactProps.formId}`);
    expect(form.getAttribute("method")?.toUpperCase()).toBe("POST");
  });

  it("posts to the page's own origin when the endpoint is empty (the preview's stand-in)", () => {
    const { form } = setup({ ...contactProps, endpoint: "" });
    expect(form).toHaveAttribute("action", `/f/${contactProps.formId}`);
  });

  it.each([
    ["firstName", "First name", "given-name", "text"],
    ["lastName", "Last name", "family-name", "text"],
    ["address", "Street address", "address-line1", "text"],
    ["city", "City", "address-level2", "text"],
    ["state", "State", "address-level1", "text"],
    ["zip", "ZIP code", "postal-code", "text"],
    ["email", contactProps.fields.email, "email", "email"],
    ["phone", "Mobile phone", "tel", "tel"],
  ])("has a labelled %s field, required when its props say so", (name, label, autocomplete, type) => {
    setup();
    const input = screen.getByLabelText(label) as HTMLInputElement;
    expect(input.id).toBe(name);
    expect(input.name).toBe(name);
    expect(input).toHaveAttribute("autocomplete", autocomplete);
    expect(input.type).toBe(type);
    expect(input.required).toBe(contactProps.requiredFields.some((field) => field === name));
  });

  it("marks required exactly the fields its props name", () => {
    expect(contactProps.requiredFields.length).toBeGreaterThan(0);
    const { form } = setup({ ...contactProps, requiredFields: ["email", "promotion"] });
    const required = [...form.querySelectorAll("input, select")].filter((field) => (field as HTMLInputElement).required);
    expect(required.map((field) => field.getAttribute("name"))).toEqual(["email", "promotion"]);
  });

  it("prefills city and state, still editable", async () => {
    const { user } = setup();
    const city = screen.getByLabelText("City") as HTMLInputElement;
    expect(city.value).toBe("Brookings");
    expect((screen.getByLabelText("State") as HTMLInputElement).value).toBe("SD");
    await user.clear(city);
    await user.type(city, "Volga");
    expect(city.value).toBe("Volga");
  });

  it("asks for a numeric ZIP", () => {
    setup();
    const zip = screen.getByLabelText("ZIP code") as HTMLInputElement;
    expect(zip).toHaveAttribute("inputmode", "numeric");
    const pattern = new RegExp(`^(?:${zip.pattern})$`);
    expect(pattern.test("57006")).toBe(true);
    expect(pattern.test("57006-1234")).toBe(true);
    expect(pattern.test("5700")).toBe(false);
    expect(pattern.test("abcde")).toBe(false);
  });

  it("offers the promotions with the note, described by it, defaulting to Just Curious", () => {
    setup();
    const select = screen.getByLabelText("Plan") as HTMLSelectElement;
    expect(select.id).toBe("promotion");
    expect(select.name).toBe("promotion");
    expect(select.value).toBe("None");
    expect(Array.from(select.options).map((o) => [o.value, o.text])).toEqual([
      ["None", "Just Curious"],
      ["Monthly plan", "Monthly plan"],
      ["Yearly plan (2 months free)", "Yearly plan (2 months free)"],
    ]);
    expect(select).toHaveAccessibleDescription("Promotions cannot be combined.");
    expect(select).not.toBeRequired();
  });

  it("hides the honeypot from people, keyboards, assistive technology and autofill", () => {
    const { form } = setup();
    const honeypot = form.querySelector<HTMLInputElement>('input[name="_gotcha"]');
    expect(honeypot).not.toBeNull();
    expect(honeypot?.id).toBe("_gotcha");
    expect(honeypot?.tabIndex).toBe(-1);
    expect(honeypot).toHaveAttribute("autocomplete", "off");
    expect(honeypot?.value).toBe("");
    expect(honeypot?.closest("[hidden]")).toHaveAttribute("aria-hidden", "true");
    expect(honeypot).not.toBeVisible();
    expect(within(form).getAllByRole("textbox").map((t) => t.id)).not.toContain("_gotcha");
  });
});

describe("contact island: plan fields", () => {
  function planFields() {
    const value = (name: string) => (document.getElementById(name) as HTMLInputElement).value;
    return [value("plan_type"), value("plan_amount"), value("billing_frequency")];
  }

  it("defaults to monthly", () => {
    setup();
    expect(planFields()).toEqual(["monthly", "25", "monthly"]);
    for (const name of ["plan_type", "plan_amount", "billing_frequency"]) {
      expect(document.getElementById(name)).toHaveAttribute("type", "hidden");
      expect(document.getElementById(name)).toHaveAttribute("name", name);
    }
  });

  it("reads the saved plan", () => {
    localStorage.setItem("plan", "annual");
    setup();
    expect(planFields()).toEqual(["annual", "250", "yearly"]);
  });

  it("follows plan-change, with amounts from its own props", () => {
    const props: ContactProps = {
      ...contactProps,
      plans: {
        monthly: { planType: "monthly", amount: 30, frequency: "monthly" },
        annual: { planType: "annual", amount: 300, frequency: "yearly" },
      },
    };
    setup(props);
    expect(planFields()).toEqual(["monthly", "30", "monthly"]);
    act(() => choosePlan("annual", props.plans));
    expect(planFields()).toEqual(["annual", "300", "yearly"]);
  });

  it("makes a plan promotion choose that plan; Just Curious leaves the plan alone", async () => {
    const { user } = setup();
    const select = screen.getByLabelText("Plan");
    await user.selectOptions(select, "Yearly plan (2 months free)");
    expect(planFields()).toEqual(["annual", "250", "yearly"]);
    expect(localStorage.getItem("plan")).toBe("annual");
    await user.selectOptions(select, "None");
    expect(planFields()).toEqual(["annual", "250", "yearly"]);
    await user.selectOptions(select, "Monthly plan");
    expect(planFields()).toEqual(["monthly", "25", "monthly"]);
  });

  it("does not announce a plan the store already holds, even while its own state lags behind", () => {
    setup();
    // A Start press between the island's first render and its subscription: saved, heard by no one here.
    localStorage.setItem("plan", "annual");
    const events = recordPlanChanges();
    const select = screen.getByLabelText("Plan") as HTMLSelectElement;
    act(() => {
      select.value = "Yearly plan (2 months free)";
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
    events.stop();
    expect(events.details).toEqual([]);
  });

  it("hears a Start button's change event on the select", () => {
    setup();
    const select = screen.getByLabelText("Plan") as HTMLSelectElement;
    act(() => {
      select.value = "Yearly plan (2 months free)";
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
    expect(planFields()).toEqual(["annual", "250", "yearly"]);
  });
});

describe("contact island: ZIP check", () => {
  it("says whether a whole ZIP is in the service area, politely, as the visitor types", async () => {
    const { user } = setup();
    const zip = screen.getByLabelText("ZIP code");
    const status = screen.getByRole("status");
    expect(zip).toHaveAttribute("aria-describedby", status.id);
    await user.type(zip, "5700");
    expect(status).toHaveTextContent(/^$/);
    await user.type(zip, "7");
    expect(status).toHaveTextContent(contactProps.zip.inArea);
    await user.clear(zip);
    await user.type(zip, "90210");
    expect(status).toHaveTextContent(contactProps.zip.outsideArea);
    await user.clear(zip);
    await user.type(zip, "57002-0001");
    expect(status).toHaveTextContent(contactProps.zip.inArea);
    await user.type(zip, "9");
    expect(status).toHaveTextContent(/^$/);
  });

  it("uses the service area from props", async () => {
    const { user } = setup({ ...contactProps, zip: { ...contactProps.zip, serviceArea: ["90210"] } });
    await user.type(screen.getByLabelText("ZIP code"), "57006");
    expect(screen.getByRole("status")).toHaveTextContent(contactProps.zip.outsideArea);
  });
});

describe("contact island: submitting", () => {
  it("sends every field through the Formspree client and shows the thank-you view", async () => {
    const fetchMock = replyWith(200, { next: "/thanks", ok: true });
    const { user, container } = setup();
    await typeForm(user);
    await user.selectOptions(screen.getByLabelText("Plan"), "Yearly plan (2 months free)");
    await user.click(screen.getByRole("button", { name: "Sign me up" }));

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as FetchArgs;
    expect(url).toBe(`${contactProps.endpoint}/f/${contactProps.formId}`);
    expect(init?.method).toBe("POST");
    expect(init?.mode).toBe("cors");
    const headers = init?.headers as Record<string, string>;
    expect(headers.Accept).toBe("application/json");
    expect(headers["Formspree-Client"]).toMatch(/^curbside @formspree\/core@4\.\d+\.\d+$/);
    // No Content-Type: the browser sets multipart/form-data with its boundary.
    expect(headers["Content-Type"]).toBeUndefined();
    const session: unknown = JSON.parse(atob(headers["Formspree-Session-Data"] ?? ""));
    expect(session).toEqual({ loadedAt: expect.any(Number), webdriver: false });
    const body = init?.body;
    expect(body).toBeInstanceOf(FormData);
    expect(Object.fromEntries((body as FormData).entries())).toEqual({
      ...typed,
      city: "Brookings",
      state: "SD",
      promotion: "Yearly plan (2 months free)",
      plan_type: "annual",
      plan_amount: "250",
      billing_frequency: "yearly",
      _gotcha: "",
    });

    const heading = await screen.findByRole("heading", { level: 2, name: "Thanks — we've got your info!" });
    expect(heading).toHaveFocus();
    expect(heading).toHaveAttribute("tabindex", "-1");
    expect(screen.getByText("We'll reach out shortly to get you set up.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to home" })).toHaveAttribute("href", "/");
    expect(container.querySelector("form")).toBeNull();
    expect(screen.queryByText("Start your service")).toBeNull();
  });

  it("lets the browser's required checks stop an incomplete form", async () => {
    const fetchMock = replyWith(200, { next: "/thanks" });
    const { user, submit } = setup();
    await user.click(submit);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows Submitting… on a disabled button, and a double click sends once", async () => {
    const later = replyLater();
    const { user, submit } = setup();
    fillForm();
    await user.dblClick(submit);
    expect(later.fetchMock).toHaveBeenCalledTimes(1);
    expect(submit).toBeDisabled();
    expect(submit).toHaveTextContent("Submitting…");
    await act(async () => later.answer(200, { next: "/thanks" }));
    expect(await screen.findByRole("heading", { name: "Thanks — we've got your info!" })).toBeInTheDocument();
    expect(later.fetchMock).toHaveBeenCalledTimes(1);
  });

  it("sends once even when two submit events arrive before React re-renders", async () => {
    const later = replyLater();
    const { form } = setup();
    fillForm();
    fireEvent.submit(form);
    fireEvent.submit(form);
    expect(later.fetchMock).toHaveBeenCalledTimes(1);
    await act(async () => later.answer(200, { next: "/thanks" }));
  });
});

const FIELD_CODES = [
  "REQUIRED_FIELD_EMPTY",
  "REQUIRED_FIELD_MISSING",
  "TYPE_EMAIL",
  "TYPE_NUMERIC",
  "TYPE_TEXT",
  "STRIPE_CLIENT_ERROR",
  "STRIPE_SCA_ERROR",
] as const;
const FORM_CODES = [
  "BLOCKED",
  "EMPTY",
  "FILES_TOO_BIG",
  "FORM_NOT_FOUND",
  "INACTIVE",
  "NO_FILE_UPLOADS",
  "PROJECT_NOT_FOUND",
  "TOO_MANY_FILES",
] as const;

describe("contact island: errors", () => {
  async function submitAndGetLines(status: number, body: unknown): Promise<string[]> {
    replyWith(status, body);
    const { user, submit } = setup();
    fillForm();
    await user.click(submit);
    await screen.findByRole("button", { name: "Sign me up" });
    return alertLines();
  }

  it.each(FIELD_CODES)("shows %s on the email field prefixed Email", async (code) => {
    const lines = await submitAndGetLines(422, {
      error: "Validation errors",
      errors: [{ code, field: "email", message: `email says ${code}` }],
    });
    expect(lines).toEqual([`Email email says ${code}`]);
  });

  it.each(FIELD_CODES)("does not show %s on another field", async (code) => {
    const lines = await submitAndGetLines(422, {
      error: "Validation errors",
      errors: [{ code, field: "phone", message: `phone says ${code}` }],
    });
    expect(lines).toEqual([]);
  });

  it.each(FORM_CODES)("shows form-level %s prefixed Form", async (code) => {
    const lines = await submitAndGetLines(400, { error: "Failed", errors: [{ code, message: `form says ${code}` }] });
    expect(lines).toEqual([`Form form says ${code}`]);
  });

  it("shows an error with a code outside the catalogue by the same rule", async () => {
    const lines = await submitAndGetLines(400, {
      errors: [
        { code: "SOMETHING_NEW", field: "email", message: "odd email" },
        { code: "ALSO_NEW", message: "odd form" },
      ],
    });
    expect(lines).toEqual(["Email odd email", "Form odd form"]);
  });

  it("joins several messages of one kind with commas, email before form", async () => {
    const lines = await submitAndGetLines(422, {
      errors: [
        { code: "BLOCKED", message: "blocked" },
        { code: "TYPE_EMAIL", field: "email", message: "should be an email" },
        { code: "REQUIRED_FIELD_EMPTY", field: "firstName", message: "is required" },
        { code: "TYPE_TEXT", field: "email", message: "is too long" },
        { code: "EMPTY", message: "empty" },
      ],
    });
    expect(lines).toEqual(["Email should be an email, is too long", "Form blocked, empty"]);
  });

  it("shows the hosted service's invalid-email reply", async () => {
    const lines = await submitAndGetLines(422, {
      error: "Validation errors",
      errors: [{ code: "TYPE_EMAIL", field: "email", message: "should be an email" }],
    });
    expect(lines).toEqual(["Email should be an email"]);
    expect(screen.getByLabelText(contactProps.fields.email)).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText(contactProps.fields.email)).toHaveAccessibleDescription("Email should be an email");
  });

  it("shows the hosted service's unknown-form reply", async () => {
    const lines = await submitAndGetLines(404, {
      error: "Form not found",
      errors: [{ code: "FORM_NOT_FOUND", message: "Form not found" }],
    });
    expect(lines).toEqual(["Form Form not found"]);
  });

  it("shows a lone error string as a form error", async () => {
    expect(await submitAndGetLines(500, { error: "Server exploded" })).toEqual(["Form Server exploded"]);
  });

  it("decides by the body, not the status", async () => {
    expect(await submitAndGetLines(200, { error: "Nope" })).toEqual(["Form Nope"]);
  });

  it.each([
    ["an object without next, errors or error", { ok: true }],
    ["a next that is not a string", { next: 42 }],
    ["an array", [1, 2]],
    ["null", null],
  ])("says Unexpected response format for %s", async (_label, body) => {
    expect(await submitAndGetLines(200, body)).toEqual(["Form Unexpected response format"]);
  });

  it("shows the failure's own message when the network fails", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    const { user, submit } = setup();
    fillForm();
    await user.click(submit);
    await screen.findByRole("button", { name: "Sign me up" });
    expect(alertLines()).toEqual(["Form Failed to fetch"]);
  });

  it("shows the parse failure's message when the body is not JSON", async () => {
    const lines = await submitAndGetLines(502, "<html>Bad gateway</html>");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Form .*JSON/);
  });

  it("says Unknown error while posting when the failure has no message", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject("offline")));
    const { user, submit } = setup();
    fillForm();
    await user.click(submit);
    await screen.findByRole("button", { name: "Sign me up" });
    expect(alertLines()).toHaveLength(1);
    expect(alertLines()[0]).toMatch(/^Form Unknown error while posting/);
  });

  it("keeps the last messages while sending again, then shows a repeated one as new", async () => {
    const fetchMock = replyWith(400, { errors: [{ code: "BLOCKED", message: "blocked" }] });
    const { user, submit } = setup();
    fillForm();
    await user.click(submit);
    const first = await screen.findByText("Form blocked");
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    await user.click(submit);
    expect(submit).toHaveTextContent("Submitting…");
    // Nothing above or around the button moves while it is busy.
    expect(first).toBeInTheDocument();
    await act(async () => answer(new Response(JSON.stringify({ errors: [{ code: "BLOCKED", message: "blocked" }] }))));
    const second = await screen.findByText("Form blocked");
    expect(second).not.toBe(first);
    expect(alertLines()).toEqual(["Form blocked"]);
  });

  it("keeps the same form, editable, with everything typed, and can send again", async () => {
    const fetchMock = replyWith(400, { errors: [{ code: "BLOCKED", message: "blocked" }] });
    const { user, form, submit } = setup();
    await typeForm(user);
    await user.selectOptions(screen.getByLabelText("Plan"), "Monthly plan");
    await user.click(submit);
    await screen.findByText("Form blocked");
    expect(document.querySelector("form")).toBe(form);
    expect(fieldValues()).toEqual(typed);
    expect((screen.getByLabelText("Plan") as HTMLSelectElement).value).toBe("Monthly plan");
    expect(submit).toBeEnabled();

    await user.type(screen.getByLabelText("Mobile phone"), "9");
    expect((screen.getByLabelText("Mobile phone") as HTMLInputElement).value).toBe(`${typed.phone}9`);

    fetchMock.mockImplementation(async () => new Response(JSON.stringify({ next: "/thanks" })));
    await user.click(submit);
    expect(await screen.findByRole("heading", { name: "Thanks — we've got your info!" })).toHaveFocus();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe("contact island: no reply", () => {
  it("gives up after 15 seconds with a clear message, and keeps the form", async () => {
    vi.useFakeTimers();
    const later = replyLater();
    const { form, submit } = setup();
    fillForm();
    fireEvent.click(submit);
    expect(later.fetchMock).toHaveBeenCalledTimes(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(14_900);
    });
    expect(submit).toBeDisabled();
    expect(alertLines()).toEqual([]);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(submit).toBeEnabled();
    expect(submit).toHaveTextContent("Sign me up");
    expect(alertLines()).toHaveLength(1);
    expect(alertLines()[0]).toMatch(/^Form .*did not answer in time/);
    expect(document.querySelector("form")).toBe(form);
    expect(fieldValues()).toEqual(typed);
  });

  it("uses the content's timeout text when given", async () => {
    vi.useFakeTimers();
    replyLater();
    const { submit } = setup({ ...contactProps, timeout: "No answer from the sign-up service." });
    fillForm();
    fireEvent.click(submit);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(15_000);
    });
    expect(alertLines()).toEqual(["Form No answer from the sign-up service."]);
  });

  it("still thanks the visitor if the submission lands after the timeout", async () => {
    vi.useFakeTimers();
    const later = replyLater();
    const { submit } = setup();
    fillForm();
    fireEvent.click(submit);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(15_000);
    });
    expect(alertLines()).toHaveLength(1);
    await act(async () => later.answer(200, { next: "/thanks" }));
    expect(screen.getByRole("heading", { name: "Thanks — we've got your info!" })).toHaveFocus();
  });
});
