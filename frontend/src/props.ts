// Props of each island, exactly as the Rust CLI serializes them from content/.
// Island code holds no business constants: every price, label and text arrives here.

export type PlanType = "monthly" | "annual";
export type BillingFrequency = "monthly" | "yearly";

/** The plan as it travels between islands and into the form's hidden fields. */
export interface Plan {
  planType: PlanType;
  amount: number;
  frequency: BillingFrequency;
}

/** Both plans, keyed by plan type. */
export type Plans<P extends Plan = Plan> = Record<PlanType, P>;

export interface PricingPlan extends Plan {
  name: string;
  /** Display price, e.g. "$25". */
  price: string;
  unit: string;
  features: string[];
  cancellation: string;
  /** Text of the Start button. */
  button: string;
  /** Value of the contact form's promotion select that this plan's Start button chooses. */
  promotion: string;
  badge: string | null;
}

export interface PricingProps {
  toggleLabel: string;
  monthlyLabel: string;
  annualLabel: string;
  /** id of the contact section the Start buttons lead to. */
  contactId: string;
  /** id of the contact form's promotion select. */
  promotionSelectId: string;
  plans: Plans<PricingPlan>;
}

export interface MenuLink {
  href: string;
  text: string;
}

export interface MenuProps {
  /** Text of the toggle button shown on small screens. */
  label: string;
  /** Accessible name of the nav landmark. */
  navLabel: string;
  links: MenuLink[];
}

export interface PromotionOption {
  value: string;
  label: string;
}

export interface ContactProps {
  /** Origin of the form service, e.g. "https://formspree.io"; "" means the page's own origin (local preview). */
  endpoint: string;
  formId: string;
  heading: string;
  lead: string;
  phone: { label: string; display: string; tel: string };
  email: { label: string; address: string };
  fields: {
    firstName: string;
    lastName: string;
    address: string;
    city: string;
    state: string;
    zip: string;
    email: string;
    phone: string;
    promotion: string;
  };
  defaults: { city: string; state: string };
  promotion: {
    /** The first option is the default ("None", shown as "Just Curious"). */
    options: PromotionOption[];
    note: string;
    /** Option values that stand for each plan. */
    monthly: string;
    annual: string;
  };
  plans: Plans;
  zip: { serviceArea: string[]; inArea: string; outsideArea: string };
  submit: string;
  submitting: string;
  privacyNote: string;
  privacyLink: string;
  privacyHref: string;
  thanks: { heading: string; text: string; backHome: string; href: string };
  /** Shown, prefixed like any form-level error, when the form service does not reply in time. */
  timeout: string;
}

export interface IslandProps {
  pricing: PricingProps;
  menu: MenuProps;
  contact: ContactProps;
}

export type IslandName = keyof IslandProps;
