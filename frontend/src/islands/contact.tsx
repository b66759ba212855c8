// The contact section: how to reach the business, and the sign-up form.
// The form works without JS (a plain POST to the form service). With JS it is
// submitted through the Formspree client; its inputs stay uncontrolled so nothing
// typed is lost across hydration or a failed submit, and the form is never reset or re-mounted.
import { useEffect, useId, useRef, useState, type ChangeEvent, type ComponentProps, type FormEvent } from "react";
import { sendSignup } from "../formspree";
import { choosePlan, onPlanChange, readPlanType } from "../plan";
import type { ContactProps, PlanType } from "../props";
import { zipMessage } from "../zip";

type Status = "idle" | "submitting" | "succeeded" | "errored";

/** Fixed so the layout can label the section with it; only one of the two views exists at a time. */
export const CONTACT_HEADING_ID = "contact-heading";

export default function Contact(props: ContactProps) {
  const { fields, plans, promotion } = props;
  const [status, setStatus] = useState<Status>("idle");
  // `round` counts replies shown, so the same message after a retry is new content and is announced again.
  const [errors, setErrors] = useState<{ lines: string[]; round: number }>({ lines: [], round: 0 });
  const [emailRejected, setEmailRejected] = useState(false);
  const [planType, setPlanType] = useState<PlanType>("monthly");
  const [zipNote, setZipNote] = useState("");
  // Refs, not state: a double click fires two submit events before any re-render.
  const inFlight = useRef(false);
  const planRef = useRef<PlanType>("monthly");
  const zipRef = useRef<HTMLInputElement>(null);
  const errorsRef = useRef<HTMLDivElement>(null);
  const thanksRef = useRef<HTMLHeadingElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  // Set when a failure shows no message: focus goes back to the button once it is enabled again.
  const [refocusSubmit, setRefocusSubmit] = useState(false);
  const noteId = useId();
  const zipStatusId = useId();
  const errorsId = useId();

  useEffect(() => {
    const apply = (type: PlanType): void => {
      planRef.current = type;
      setPlanType(type);
    };
    apply(readPlanType());
    return onPlanChange(apply);
  }, []);

  useEffect(() => {
    // A ZIP typed before hydration should be checked too.
    if (zipRef.current) setZipNote(zipMessage(zipRef.current.value, props.zip));
  }, [props.zip]);

  useEffect(() => {
    if (status === "succeeded") thanksRef.current?.focus();
  }, [status]);

  useEffect(() => {
    if (status !== "errored" || !refocusSubmit) return;
    submitRef.current?.focus();
    setRefocusSubmit(false);
  }, [status, refocusSubmit]);

  function onPromotionChange(event: ChangeEvent<HTMLSelectElement>): void {
    // Picking a plan's promotion picks that plan, so the plan fields sent always match it.
    // "None" (Just Curious) leaves the plan as it is.
    const value = event.currentTarget.value;
    const chosen: PlanType | null =
      value === promotion.monthly ? "monthly" : value === promotion.annual ? "annual" : null;
    if (chosen !== null && chosen !== planRef.current) choosePlan(chosen, plans);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    const data = new FormData(event.currentTarget);
    // Earlier messages stay until the new reply: removing them now would shift the page under a double click.
    setStatus("submitting");
    const outcome = await sendSignup(data, props, {
      timeoutMessage: props.timeout,
      onLateSuccess: () => setStatus("succeeded"),
    });
    inFlight.current = false;
    if (outcome.kind === "success") {
      setStatus("succeeded");
      return;
    }
    setErrors((previous) => ({ lines: outcome.lines, round: previous.round + 1 }));
    setEmailRejected(outcome.emailRejected);
    // Once thanked, a late failure of another attempt must not bring the form back.
    setStatus((current) => (current === "succeeded" ? current : "errored"));
    // The disabled button dropped focus; put it where the reason is.
    const focusLost = document.activeElement === null || document.activeElement === document.body;
    if (focusLost && outcome.lines.length > 0) {
      errorsRef.current?.focus();
    } else if (focusLost) {
      // Nothing to read (errors on fields the form does not show): back to the button.
      setRefocusSubmit(true);
    }
  }

  if (status === "succeeded") {
    const { thanks } = props;
    return (
      <div className="contact contact--thanks">
        <h2 id={CONTACT_HEADING_ID} ref={thanksRef} tabIndex={-1} className="contact__heading">
          {thanks.heading}
        </h2>
        <p className="contact__lead">{thanks.text}</p>
        <p>
          <a className="button button--secondary" href={thanks.href}>
            {thanks.backHome}
          </a>
        </p>
      </div>
    );
  }

  const submitting = status === "submitting";
  return (
    <div className="contact">
      <h2 id={CONTACT_HEADING_ID} className="contact__heading">
        {props.heading}
      </h2>
      <p className="contact__lead">{props.lead}</p>
      <ul className="contact__methods">
        <li className="contact__method">
          <span className="contact__method-label">{props.phone.label}</span>{" "}
          <a className="tel" href={`tel:${props.phone.tel}`}>{props.phone.display}</a>
        </li>
        <li className="contact__method">
          <span className="contact__method-label">{props.email.label}</span>{" "}
          <a href={`mailto:${props.email.address}`}>{props.email.address}</a>
        </li>
      </ul>

      <form className="contact-form" action={`${props.endpoint}/f/${props.formId}`} method="POST" onSubmit={onSubmit}>
        <div className="contact-form__fields">
          <Field name="firstName" label={fields.firstName} autoComplete="given-name" required />
          <Field name="lastName" label={fields.lastName} autoComplete="family-name" required />
          <Field name="address" label={fields.address} autoComplete="address-line1" required wide />
          <Field name="city" label={fields.city} autoComplete="address-level2" defaultValue={props.defaults.city} required />
          <Field name="state" label={fields.state} autoComplete="address-level1" defaultValue={props.defaults.state} required />
          <Field
            name="zip"
            label={fields.zip}
            ref={zipRef}
            autoComplete="postal-code"
            inputMode="numeric"
            pattern="[0-9]{5}(-[0-9]{4})?"
            aria-describedby={zipStatusId}
            onChange={(event) => setZipNote(zipMessage(event.currentTarget.value, props.zip))}
            required
          >
            <p id={zipStatusId} className="contact-form__zip-status" role="status">
              {zipNote}
            </p>
          </Field>
          <Field
            name="email"
            label={fields.email}
            type="email"
            autoComplete="email"
            aria-invalid={emailRejected || undefined}
            aria-describedby={emailRejected ? errorsId : undefined}
            required
          />
          <Field name="phone" label={fields.phone} type="tel" autoComplete="tel" required />
          <div className="contact-form__field contact-form__field--wide">
            <label htmlFor="promotion">{fields.promotion}</label>
            <select
              id="promotion"
              name="promotion"
              defaultValue={promotion.options[0]?.value}
              aria-describedby={noteId}
              onChange={onPromotionChange}
            >
              {promotion.options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
            <p id={noteId} className="contact-form__note">
              {promotion.note}
            </p>
          </div>
        </div>

        {/* Filled from the current plan; the service receives them with the promotion. */}
        <input type="hidden" id="plan_type" name="plan_type" value={planType} />
        <input type="hidden" id="plan_amount" name="plan_amount" value={String(plans[planType].amount)} />
        <input type="hidden" id="billing_frequency" name="billing_frequency" value={plans[planType].frequency} />

        {/* Honeypot for bots. `hidden` is the UA's display:none, so it needs no site CSS, is never
            focusable, never in the accessibility tree and never autofilled; bots reading the HTML still see it. */}
        <div hidden aria-hidden="true">
          <input type="text" id="_gotcha" name="_gotcha" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>

        <button ref={submitRef} type="submit" className="button button--primary button--large contact-form__submit" disabled={submitting}>
          {submitting ? props.submitting : props.submit}
        </button>

        {/* After the button, so messages appearing never move it (or anything above) under the pointer. */}
        <div ref={errorsRef} id={errorsId} className="contact-form__errors" role="alert" tabIndex={-1}>
          {errors.lines.map((line) => (
            <p key={`${errors.round}:${line}`}>{line}</p>
          ))}
        </div>
        <p className="contact-form__privacy">
          {props.privacyNote} <a href={props.privacyHref}>{props.privacyLink}</a>
        </p>
      </form>
    </div>
  );
}

type FieldName = "firstName" | "lastName" | "address" | "city" | "state" | "zip" | "email" | "phone";

type FieldProps = Omit<ComponentProps<"input">, "id" | "name"> & {
  name: FieldName;
  label: string;
  /** Spans the whole row of the field grid. */
  wide?: boolean;
};

/** A labelled input whose id is its name, as the spec's field names are the form's contract. */
function Field({ name, label, wide = false, children, ...input }: FieldProps) {
  const className = `contact-form__field contact-form__field--${name}${wide ? " contact-form__field--wide" : ""}`;
  return (
    <div className={className}>
      <label htmlFor={name}>{label}</label>
      <input id={name} name={name} type="text" {...input} />
      {children}
    </div>
  );
}
