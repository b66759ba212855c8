// The contact form against an intercepted form service (https://formspree.io/f/xsample1):
// the request it sends, its pending, thank-you and error states, what it shows for each
// reply of the service, the ZIP check, the browser's own validation and the honeypot.
// Nothing leaves the machine: every request to the service is answered here.
import type { Page } from "@playwright/test";
import {
  ANNUAL,
  MONTHLY,
  PERSON,
  PROMOTION,
  SUCCESS,
  bodyFields,
  expect,
  expectNoAxeViolations,
  expectedBody,
  failedStatus,
  fieldsObject,
  fillPerson,
  formValues,
  holdAsset,
  interceptFormService,
  jsonReply,
  openContactForm,
  test,
  waitForIsland,
  type FormService,
  type Person,
  type Reply,
} from "../support/islands";

/** The fields the contact island's props (the page's `props-contact`) name as required. */
async function requiredFields(page: Page): Promise<string[]> {
  const props = JSON.parse((await page.locator("script#props-contact").textContent()) ?? "{}") as { requiredFields?: string[] };
  return props.requiredFields ?? [];
}

const submitButton = (page: Page) => page.locator("#contact form button[type=submit]");
const errorLines = (page: Page) => page.locator("#contact .contact-form__errors p");

/** The thank-you view has replaced the form. */
async function expectThanks(page: Page): Promise<void> {
  const section = page.locator("#contact");
  const heading = section.getByRole("heading", { level: 2 });
  await expect(heading).toHaveText("Thanks — we've got your info!");
  await expect(heading).toBeFocused();
  await expect(section.getByText("We'll reach out shortly to get you set up.", { exact: true })).toBeVisible();
  await expect(section.getByRole("link", { name: "Back to home" })).toHaveAttribute("href", "/");
  await expect(section.locator("form")).toHaveCount(0);
  // The section is still named by its (new) heading.
  await expect(page.getByRole("region", { name: "Thanks — we've got your info!" })).toBeVisible();
}

/** Idle again after a failed submit: editable, the button back, every typed value kept. */
async function expectEditableWith(page: Page, values: Record<string, string>): Promise<void> {
  await expect(submitButton(page)).toHaveText("Sign me up");
  await expect(submitButton(page)).toBeEnabled();
  expect(await formValues(page)).toEqual(values);
  for (const name of Object.keys(PERSON)) await expect(page.locator(`#${name}`)).toBeEditable();
  await expect(page.locator("#promotion")).toBeEnabled();
}

/** Submits once and waits for the reply to be shown (the button is back). */
async function submitAndAnswer(page: Page, service: FormService, reply: Reply | "abort"): Promise<void> {
  service.answer(reply);
  const count = service.requests.length;
  await submitButton(page).click();
  await expect.poll(() => service.requests.length).toBe(count + 1);
  await expect(submitButton(page)).toHaveText("Sign me up");
}

async function typedValues(page: Page): Promise<Record<string, string>> {
  return formValues(page);
}

// The form's logic, the same on every screen: the phone's sweep taps the same submit button.
test.describe("a successful sign-up", { tag: "@any-screen" }, () => {
  test("sends every field to the form service as Formspree's client does, then thanks the visitor", async ({ page }) => {
    const startedAt = Date.now();
    const service = await interceptFormService(page);
    await openContactForm(page);
    await fillPerson(page);
    await page.locator("#promotion").selectOption(PROMOTION.annual);
    await expect(page.locator("#plan_type")).toHaveValue("annual");

    await submitButton(page).click();
    const request = await service.nextRequest();
    // Pending: the reply is held until this state has been checked.
    await expect(submitButton(page)).toHaveText("Submitting…");
    await expect(submitButton(page)).toBeDisabled();

    expect(request.method()).toBe("POST");
    expect(request.url()).toBe("https://formspree.io/f/xsample1");
    const headers = request.headers();
    expect(headers["accept"]).toBe("application/json");
    expect(headers["formspree-client"]).toContain("@formspree/core@4");
    expect(headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    const session = JSON.parse(Buffer.from(headers["formspree-session-data"] ?? "", "base64").toString("utf8")) as Record<
      string,
      unknown
    >;
    expect(Object.keys(session).sort()).toEqual(["loadedAt", "webdriver"]);
    expect(typeof session.loadedAt).toBe("number");
    expect(session.loadedAt as number).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(session.loadedAt as number).toBeLessThanOrEqual(Date.now());
    expect(typeof session.webdriver).toBe("boolean");
    expect(fieldsObject(await bodyFields(request))).toEqual(expectedBody(PERSON, PROMOTION.annual, ANNUAL));

    await service.release(SUCCESS);
    await expectThanks(page);
    expect(service.requests).toHaveLength(1);
    await expectNoAxeViolations(page);
  });

  test("a double click sends exactly one request", async ({ page }) => {
    const service = await interceptFormService(page);
    await openContactForm(page);
    await fillPerson(page);
    await submitButton(page).dblclick();
    await service.nextRequest();
    await expect(submitButton(page)).toBeDisabled();
    await submitButton(page).click({ force: true });
    await service.release(SUCCESS);
    await expectThanks(page);
    expect(service.requests).toHaveLength(1);
    expect(fieldsObject(await bodyFields(service.requests[0]!))).toEqual(expectedBody(PERSON, PROMOTION.none, MONTHLY));
  });

  test("a ZIP and a submit before the form has hydrated are answered at once, and the submit is sent by the island, not as a page load", async ({ page }) => {
    const service = await interceptFormService(page);
    service.answer(SUCCESS);
    // Hold the contact chunk: the form is the server's HTML while it is filled and sent.
    const chunk = await holdAsset(page, /\/assets\/contact-[\w-]+\.js$/);
    await page.goto("/");
    await page.locator("#contact").scrollIntoViewIfNeeded();
    await fillPerson(page);
    // React has not arrived, yet the ZIP's note and the sending state show at once, in the island's words.
    await expect(page.locator("#contact [role=status]")).toHaveText("Great, Brookings area ZIP codes are in our service area.");
    await submitButton(page).click();
    await expect(submitButton(page)).toHaveText("Submitting…");
    await expect(submitButton(page)).toBeDisabled();
    await expect(page.locator("[data-island=contact]")).not.toHaveAttribute("data-hydrated");
    expect(service.requests).toHaveLength(0);
    chunk.release();
    await expectThanks(page);
    expect(page.url()).not.toContain("formspree");
    expect(service.requests).toHaveLength(1);
    const request = service.requests[0]!;
    expect(request.headers()["accept"]).toBe("application/json");
    expect(fieldsObject(await bodyFields(request))).toEqual(expectedBody(PERSON, PROMOTION.none, MONTHLY));
  });
});

test.describe("errors from the form service", { tag: "@any-screen" }, () => {
  // What each reply of the service shows is the island's logic, the same at any width: checked
  // once, on the desktop. On the phone, the tap sweep sends the form and types the ZIP by touch.
  test("422 TYPE_EMAIL shows 'Email should be an email', announced, keeps everything, then succeeds", async ({
    page,
    allowConsole,
  }) => {
    allowConsole(failedStatus(422));
    const service = await interceptFormService(page);
    await openContactForm(page);
    await fillPerson(page, { ...PERSON, email: "dana@example" });
    await page.locator("#promotion").selectOption(PROMOTION.monthly);
    const typed = await typedValues(page);
    const rejection = jsonReply(422, {
      error: "Validation errors",
      errors: [{ code: "TYPE_EMAIL", field: "email", message: "should be an email" }],
    });

    await submitAndAnswer(page, service, rejection);
    await expect(page.getByRole("alert")).toHaveText("Email should be an email");
    await expect(errorLines(page)).toHaveText(["Email should be an email"]);
    const email = page.locator("#email");
    await expect(email).toHaveAttribute("aria-invalid", "true");
    const errorsId = await page.locator("#contact .contact-form__errors").getAttribute("id");
    await expect(email).toHaveAttribute("aria-describedby", errorsId!);
    await expectEditableWith(page, typed);
    // Focus is not dropped on the page: it is on the button or on the message.
    expect(await page.evaluate(() => document.activeElement?.matches("button[type=submit], .contact-form__errors"))).toBe(
      true,
    );
    await expectNoAxeViolations(page);

    // The same reply again is new content, so it is announced again.
    await errorLines(page).first().evaluate((el) => el.setAttribute("data-seen", ""));
    await submitAndAnswer(page, service, rejection);
    await expect(errorLines(page)).toHaveText(["Email should be an email"]);
    await expect(page.locator("#contact .contact-form__errors p[data-seen]")).toHaveCount(0);

    // Corrected and sent again: accepted.
    await email.fill(PERSON.email);
    service.answer(SUCCESS);
    await submitButton(page).click();
    await expectThanks(page);
    expect(service.requests).toHaveLength(3);
    expect(fieldsObject(await bodyFields(service.requests[2]!))).toEqual(
      expectedBody(PERSON, PROMOTION.monthly, MONTHLY),
    );
  });

  test("an error on another field only shows nothing but leaves the form editable", async ({ page, allowConsole }) => {
    allowConsole(failedStatus(422));
    const service = await interceptFormService(page);
    await openContactForm(page);
    await fillPerson(page);
    const typed = await typedValues(page);
    await submitAndAnswer(
      page,
      service,
      jsonReply(422, {
        error: "Validation errors",
        errors: [{ code: "TYPE_NUMERIC", field: "phone", message: "should be a number" }],
      }),
    );
    await expect(errorLines(page)).toHaveCount(0);
    await expect(page.locator("#phone")).not.toHaveAttribute("aria-invalid", /.*/);
    await expect(page.locator("#email")).not.toHaveAttribute("aria-invalid", /.*/);
    await expectEditableWith(page, typed);
    // The button was disabled while sending, which drops focus; with no message to move it to,
    // it must stay in the form (the button is the natural place), not fall to <body>: keyboard
    // and screen-reader users would start again from the top of the page.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest("#contact form") ? "in the form" : document.activeElement?.tagName))
      .toBe("in the form");
    await page.locator("#phone").fill("6055550199");
    service.answer(SUCCESS);
    await submitButton(page).click();
    await expectThanks(page);
  });

  test("several errors: email and form messages each on a line, messages joined with ', '", async ({
    page,
    allowConsole,
  }) => {
    allowConsole(failedStatus(422));
    const service = await interceptFormService(page);
    await openContactForm(page);
    await fillPerson(page);
    await submitAndAnswer(
      page,
      service,
      jsonReply(422, {
        error: "Validation errors",
        errors: [
          { code: "TYPE_EMAIL", field: "email", message: "should be an email" },
          { code: "REQUIRED_FIELD_EMPTY", field: "phone", message: "is required" },
          { code: "BLOCKED", message: "Submission blocked" },
          { code: "REQUIRED_FIELD_MISSING", field: "email", message: "is required" },
          { code: "SOMETHING_NEW", message: "try later" },
        ],
      }),
    );
    await expect(errorLines(page)).toHaveText(["Email should be an email, is required", "Form Submission blocked, try later"]);
    await expectNoAxeViolations(page);
  });

  test("each form-level code, and an unknown one, shows its message prefixed 'Form'; the form can be sent again each time", async ({
    page,
    allowConsole,
  }) => {
    for (const status of [400, 403, 404, 413, 422]) allowConsole(failedStatus(status));
    const service = await interceptFormService(page);
    await openContactForm(page);
    await fillPerson(page);
    await page.locator("#promotion").selectOption(PROMOTION.annual);
    const typed = await typedValues(page);
    const cases: Array<[string, number, string]> = [
      ["BLOCKED", 403, "Submission blocked"],
      ["EMPTY", 422, "Empty form"],
      ["FILES_TOO_BIG", 413, "Files too big"],
      ["FORM_NOT_FOUND", 404, "Form not found"],
      ["INACTIVE", 403, "Form is inactive"],
      ["NO_FILE_UPLOADS", 400, "File uploads not allowed"],
      ["PROJECT_NOT_FOUND", 404, "Project not found"],
      ["TOO_MANY_FILES", 413, "Too many files"],
      ["A_CODE_FROM_THE_FUTURE", 400, "Something new went wrong"],
    ];
    for (const [code, status, message] of cases) {
      await submitAndAnswer(page, service, jsonReply(status, { error: message, errors: [{ code, message }] }));
      await expect(errorLines(page), code).toHaveText([`Form ${message}`]);
      await expectEditableWith(page, typed);
    }
    await expectNoAxeViolations(page);
    service.answer(SUCCESS);
    await submitButton(page).click();
    await expectThanks(page);
    expect(service.requests).toHaveLength(cases.length + 1);
    for (const request of service.requests) {
      expect(fieldsObject(await bodyFields(request))).toEqual(expectedBody(PERSON, PROMOTION.annual, ANNUAL));
    }
  });

  test("replies of other shapes, failures and bad bodies: each message shown, everything kept, sent again", async ({
    page,
    allowConsole,
  }) => {
    for (const status of [400, 429, 500]) allowConsole(failedStatus(status));
    allowConsole(/^console\.error: Failed to load resource: net::ERR_INTERNET_DISCONNECTED$/);
    const service = await interceptFormService(page);
    await openContactForm(page);
    await fillPerson(page);
    const typed = await typedValues(page);
    /**
     * The line shown when a body is not JSON: the browser's own parse error (Chromium may put
     * "Failed to execute 'json' on 'Response': " before it, depending on how the body was read).
     */
    const jsonFailure = async (body: string): Promise<RegExp> => {
      const message = await page.evaluate((text) => {
        try {
          JSON.parse(text);
          return "parsed";
        } catch (error) {
          return (error as Error).message;
        }
      }, body);
      const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      return new RegExp(`^Form (${escape("Failed to execute 'json' on 'Response': ")})?${escape(message)}$`);
    };
    const html = "<!doctype html><html><body><h1>Internal Server Error</h1></body></html>";

    const cases: Array<[string, Reply | "abort", string | RegExp]> = [
      ["a single error string", jsonReply(400, { error: "x" }), "Form x"],
      ["malformed JSON", { status: 200, body: '{"next": "/thanks",' }, await jsonFailure('{"next": "/thanks",')],
      ["a 200 with {}", jsonReply(200, {}), "Form Unexpected response format"],
      ["a 200 with ok but no next", jsonReply(200, { ok: true }), "Form Unexpected response format"],
      ["a 200 with a JSON array", jsonReply(200, []), "Form Unexpected response format"],
      ["a 500 with an HTML body", { status: 500, body: html, contentType: "text/html" }, await jsonFailure(html)],
      ["a 429 with an empty body", { status: 429, body: "" }, await jsonFailure("")],
      ["a 429 with an error", jsonReply(429, { error: "Too many requests" }), "Form Too many requests"],
      ["being offline", "abort", "Form Failed to fetch"],
    ];
    for (const [what, reply, message] of cases) {
      await submitAndAnswer(page, service, reply);
      await expect(errorLines(page), what).toHaveText([message]);
      await expectEditableWith(page, typed);
    }
    await expectNoAxeViolations(page);
    service.answer(SUCCESS);
    await submitButton(page).click();
    await expectThanks(page);
    expect(service.requests).toHaveLength(cases.length + 1);
    for (const request of service.requests) {
      expect(fieldsObject(await bodyFields(request))).toEqual(expectedBody(PERSON, PROMOTION.none, MONTHLY));
    }
  });

  test("a reply that never comes: a clear message after 15 s, everything kept, sent again", async ({ page }) => {
    await page.clock.install();
    const service = await interceptFormService(page);
    await openContactForm(page);
    await fillPerson(page);
    const typed = await typedValues(page);
    // Time stands still from here, so the island's 15 s are counted exactly.
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    await submitButton(page).click();
    await service.nextRequest();
    await expect(submitButton(page)).toHaveText("Submitting…");
    await page.clock.runFor(14_999);
    await expect(submitButton(page)).toHaveText("Submitting…");
    await expect(errorLines(page)).toHaveCount(0);
    await page.clock.runFor(1);
    await expect(errorLines(page)).toHaveText([
      "Form The sign-up service did not answer in time. Check your connection and send the form again; everything you typed is still here.",
    ]);
    await page.clock.resume();
    await expectEditableWith(page, typed);
    await expectNoAxeViolations(page);

    // The visitor sends again and this time the service answers.
    service.answer(SUCCESS);
    await submitButton(page).click();
    await expectThanks(page);
    expect(service.requests).toHaveLength(2);
  });

  test("a reply that comes after the timeout still thanks the visitor", async ({ page }) => {
    await page.clock.install();
    const service = await interceptFormService(page);
    await openContactForm(page);
    await fillPerson(page);
    await submitButton(page).click();
    await service.nextRequest();
    await page.clock.runFor(15_100);
    await expect(errorLines(page)).toHaveCount(1);
    // The first request lands after all: the data reached the service.
    await service.release(SUCCESS);
    await expectThanks(page);
  });
});

test.describe("checks in the browser", () => {
  test("the ZIP check: in the service area, outside it (still sendable), nothing for a partial ZIP", { tag: "@any-screen" }, async ({ page }) => {
    const service = await interceptFormService(page);
    service.answer(SUCCESS);
    await openContactForm(page);
    const zip = page.locator("#zip");
    const status = page.locator("#contact .contact-form__zip-status");
    await expect(status).toHaveRole("status");
    await expect(zip).toHaveAttribute("aria-describedby", (await status.getAttribute("id"))!);

    await zip.pressSequentially("5700");
    await expect(status).toHaveText("");
    await zip.pressSequentially("6");
    await expect(status).toHaveText("Great, Brookings area ZIP codes are in our service area.");
    await zip.fill("57006-1234");
    await expect(status).toHaveText("Great, Brookings area ZIP codes are in our service area.");
    await zip.fill("90210");
    const outside =
      "That ZIP looks outside our usual area (Brookings city limits and nearby parts of Brookings County, SD). Send the form anyway and we'll let you know if we can reach you.";
    await expect(status).toHaveText(outside);
    await zip.fill("9021");
    await expect(status).toHaveText("");
    await zip.fill("90210");
    await expect(status).toHaveText(outside);
    await expectNoAxeViolations(page);

    const person: Person = { ...PERSON, zip: "90210" };
    await fillPerson(page, person);
    await submitButton(page).click();
    await expectThanks(page);
    expect(fieldsObject(await bodyFields(service.requests[0]!))).toEqual(expectedBody(person, PROMOTION.none, MONTHLY));
  });

  test("required fields: an empty submit shows the browser's validation and sends nothing", { tag: "@any-screen" }, async ({ page }) => {
    const service = await interceptFormService(page);
    await openContactForm(page);
    await page.evaluate(() => {
      const w = window as unknown as { __invalid: string[]; __submits: number };
      w.__invalid = [];
      w.__submits = 0;
      document.addEventListener("invalid", (event) => w.__invalid.push((event.target as HTMLInputElement).name), true);
      document.addEventListener("submit", () => w.__submits++, true);
    });
    await page.locator("#city").fill("");
    await page.locator("#state").fill("");
    await submitButton(page).click();
    const result = await page.evaluate(() => {
      const w = window as unknown as { __invalid: string[]; __submits: number };
      return { invalid: w.__invalid, submits: w.__submits };
    });
    // Exactly the fields the contact island's props name as required: no list of them here but
    // the one the build sends.
    const required = await requiredFields(page);
    expect(required.length).toBeGreaterThan(0);
    expect([...result.invalid].sort()).toEqual([...required].sort());
    expect(result.submits).toBe(0);
    await expect(page.locator("#firstName")).toBeFocused();
    expect(await page.locator("#firstName").evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
    await expect(submitButton(page)).toHaveText("Sign me up");

    // An address that is not an email is caught by the browser too.
    await fillPerson(page, { ...PERSON, email: "not an email" });
    await submitButton(page).click();
    await expect(page.locator("#email")).toBeFocused();
    expect(await page.locator("#email").evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true);
    // Every invalid event has been dispatched synchronously by the click above.
    expect(await page.evaluate(() => (window as unknown as { __submits: number }).__submits)).toBe(0);
    expect(service.requests).toHaveLength(0);
  });

  test("the honeypot is hidden, out of the tab order and the accessibility tree, and stays empty", async ({ page }) => {
    const service = await interceptFormService(page);
    service.answer(SUCCESS);
    await openContactForm(page);
    const form = page.locator("#contact form");
    const honeypot = form.locator('[name="_gotcha"]');
    await expect(honeypot).toHaveCount(1);
    await expect(honeypot).toBeHidden();
    await expect(honeypot).toHaveValue("");
    await expect(honeypot).toHaveAttribute("tabindex", "-1");
    await expect(honeypot).toHaveAttribute("autocomplete", "off");
    // Not in the accessibility tree: role queries skip it unless asked for hidden elements.
    await expect(form.getByRole("textbox")).toHaveCount(8);
    await expect(form.getByRole("textbox", { includeHidden: true })).toHaveCount(9);
    expect(await form.ariaSnapshot()).not.toContain("_gotcha");

    // The tab order through the form never stops on it.
    await page.locator("#firstName").focus();
    const order: string[] = [];
    for (let i = 0; i < 12; i++) {
      order.push(await page.evaluate(() => document.activeElement?.getAttribute("name") ?? document.activeElement?.tagName ?? ""));
      await page.keyboard.press("Tab");
    }
    expect(order.slice(0, 11)).toEqual([
      "firstName",
      "lastName",
      "address",
      "city",
      "state",
      "zip",
      "email",
      "phone",
      "promotion",
      "BUTTON",
      "A",
    ]);

    // Filling every visible field, as an autofill would, leaves it empty.
    const visible = form.locator("input:visible");
    await expect(visible).toHaveCount(8);
    for (const input of await visible.all()) {
      const name = (await input.getAttribute("name")) as keyof typeof PERSON;
      await input.fill(PERSON[name]);
    }
    await expect(honeypot).toHaveValue("");
    await submitButton(page).click();
    await expectThanks(page);
    expect(fieldsObject(await bodyFields(service.requests[0]!))._gotcha).toBe("");
  });
});
