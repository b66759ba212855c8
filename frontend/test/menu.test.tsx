import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import Menu from "../src/islands/menu";
import { menuProps } from "./fixtures/props";

function setup() {
  const user = userEvent.setup();
  render(
    <>
      <header>
        <Menu {...menuProps} />
      </header>
      <main>
        <p>Outside the menu</p>
      </main>
    </>,
  );
  const button = screen.getByRole("button", { name: "Menu" });
  const nav = screen.getByRole("navigation", { name: "Main" });
  return { user, button, nav };
}

function isOpen(nav: HTMLElement, button: HTMLElement): boolean {
  const open = button.getAttribute("aria-expanded") === "true";
  // The class CSS uses must agree with what assistive technology is told.
  expect(nav.classList.contains("site-menu--open")).toBe(open);
  return open;
}

describe("menu island", () => {
  it("renders a labelled nav with the links from props and a collapsed toggle", () => {
    const { button, nav } = setup();
    expect(button).toHaveAttribute("aria-controls", "site-nav-list");
    expect(document.getElementById("site-nav-list")).toBe(screen.getByRole("list"));
    expect(isOpen(nav, button)).toBe(false);
    const links = screen.getAllByRole("link");
    expect(links.map((a) => [a.textContent, a.getAttribute("href")])).toEqual([
      ["How It Works", "/#how-it-works"],
      ["Pricing", "/#pricing"],
      ["FAQ", "/#faq"],
      ["Contact", "/#contact"],
    ]);
  });

  it("opens and closes with the toggle, by mouse and keyboard", async () => {
    const { user, button, nav } = setup();
    await user.click(button);
    expect(isOpen(nav, button)).toBe(true);
    await user.click(button);
    expect(isOpen(nav, button)).toBe(false);
    button.focus();
    await user.keyboard("{Enter}");
    expect(isOpen(nav, button)).toBe(true);
    await user.keyboard(" ");
    expect(isOpen(nav, button)).toBe(false);
  });

  it("closes when a link is chosen", async () => {
    const { user, button, nav } = setup();
    await user.click(button);
    await user.click(screen.getByRole("link", { name: "FAQ" }));
    expect(isOpen(nav, button)).toBe(false);
  });

  it("closes on Escape and gives focus back to the toggle", async () => {
    const { user, button, nav } = setup();
    await user.click(button);
    await user.tab();
    expect(screen.getByRole("link", { name: "How It Works" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(isOpen(nav, button)).toBe(false);
    expect(button).toHaveFocus();
  });

  it("closes on a click outside, but not on a click inside", async () => {
    const { user, button, nav } = setup();
    await user.click(button);
    await user.click(screen.getByRole("list"));
    expect(isOpen(nav, button)).toBe(true);
    await user.click(screen.getByText("Outside the menu"));
    expect(isOpen(nav, button)).toBe(false);
  });

  it("ignores Escape while closed", async () => {
    const { user, button, nav } = setup();
    screen.getByText("Outside the menu").focus();
    await user.keyboard("{Escape}");
    expect(isOpen(nav, button)).toBe(false);
    expect(button).not.toHaveFocus();
  });
});
