// Generated from the island registry (src/islands/registry.rs) and its props structs by `CURBSIDE_BLESS=1 cargo test --test island_props`.
// Do not edit: change the Rust structs, and that test tells you to regenerate this file.

/**
 * Both plans, keyed by plan type.
 */
export type Plans<P> = { monthly: P, annual: P, };

export type PlanType = "monthly" | "annual";

export type BillingFrequency = "monthly" | "yearly";

/**
 * A plan card of the pricing island.
 */
export type PricingPlan = { name: string, 
/**
 * Display price, e.g. "$25".
 */
price: string, unit: string, features: Array<string>, cancellation: string, 
/**
 * Text of the Start button.
 */
button: string, 
/**
 * Value of the contact form's promotion select that this plan's Start button chooses.
 */
promotion: string, badge: string | null, planType: PlanType, amount: number, frequency: BillingFrequency, };

export type PricingProps = { toggleLabel: string, monthlyLabel: string, annualLabel: string, 
/**
 * id of the contact section the Start buttons lead to.
 */
contactId: string, 
/**
 * id of the contact form's promotion select.
 */
promotionSelectId: string, plans: Plans<PricingPlan>, 
/**
 * The plan the page chooses (a placement's `plan`): shown until the visitor chooses one
 * themselves. None: monthly, and the form's promotion stays on its first option.
 */
plan: PlanType | null, };

export type PhoneProps = { label: string, display: string, tel: string, };

export type EmailProps = { label: string, address: string, };

/**
 * The labels of the form's fields, by field name.
 */
export type FieldLabels = { firstName: string, lastName: string, address: string, city: string, state: string, zip: string, email: string, phone: string, promotion: string, };

/**
 * A field of the sign-up form, by the name the form service receives
 * (which is also its element's id).
 */
export type ContactField = "firstName" | "lastName" | "address" | "city" | "state" | "zip" | "email" | "phone" | "promotion";

export type FieldDefaults = { city: string, state: string, };

export type PromotionOption = { value: string, label: string, };

export type PromotionProps = { 
/**
 * The first option is the default ("None", shown as "Just Curious").
 */
options: Array<PromotionOption>, note: string, 
/**
 * Option values that stand for each plan.
 */
monthly: string, annual: string, };

/**
 * The plan as it travels between islands and into the form's hidden fields.
 */
export type PlanIdentity = { planType: PlanType, amount: number, frequency: BillingFrequency, };

export type ZipProps = { serviceArea: Array<string>, inArea: string, outsideArea: string, };

export type ThanksProps = { heading: string, text: string, backHome: string, href: string, };

export type ContactProps = { 
/**
 * Origin of the form service, e.g. "https://formspree.io"; "" means the page's own origin (local preview).
 */
endpoint: string, formId: string, 
/**
 * The promotion select's id, which the Start buttons look up.
 */
promotionSelectId: string, heading: string, lead: string, phone: PhoneProps, email: EmailProps, fields: FieldLabels, 
/**
 * The fields marked `required`: the visitor must fill them in.
 */
requiredFields: Array<ContactField>, defaults: FieldDefaults, promotion: PromotionProps, plans: Plans<PlanIdentity>, 
/**
 * The plan the page chooses: the form starts on it and on its promotion, even without
 * JavaScript. None: monthly, with the promotion's first option.
 */
plan: PlanType | null, zip: ZipProps, submit: string, submitting: string, privacyNote: string, privacyLink: string, privacyHref: string, thanks: ThanksProps, 
/**
 * Shown, prefixed like any form-level error, when the form service does not reply in time.
 */
timeout: string, };
