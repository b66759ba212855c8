// Photo-like JPEGs drawn by the browser itself, so a test has a photo of any size without a
// file in the repository.
import type { Browser } from "@playwright/test";

/**
 * A busier scene (houses with windows, trees, parked cars, a lens's softness), drawn in proportion at
 * any size: its copies weigh about what a street photograph's do in AVIF and WebP. A plainer
 * picture (a gradient with grain) gets AVIF copies under 0.05 bits a pixel, which Chrome takes
 * for a placeholder and never counts as the largest paint.
 */
export async function drawTown(browser: Browser, width: number, height: number): Promise<Buffer> {
  const page = await browser.newPage();
  try {
    const jpeg = await page.evaluate(
      ([w, h]) => {
        const canvas = document.createElement("canvas");
        canvas.width = w;
        canvas.height = h;
        const context = canvas.getContext("2d");
        if (!context) throw new Error("no 2D canvas");
        let state = 0x2545f491;
        const random = (): number => {
          state ^= state << 13;
          state ^= state >>> 17;
          state ^= state << 5;
          return (state >>> 0) / 4294967296;
        };
        const hue = (h0: number, spread: number, s: number, l: number): string =>
          `hsl(${h0 + (random() - 0.5) * spread} ${s + (random() - 0.5) * 20}% ${l + (random() - 0.5) * 24}%)`;
        const unit = Math.min(w, h) / 100;
        const sky = context.createLinearGradient(0, 0, 0, h * 0.5);
        sky.addColorStop(0, "#5b8fc7");
        sky.addColorStop(1, "#cfe3f2");
        context.fillStyle = sky;
        context.fillRect(0, 0, w, h);
        // Houses along the street, each with its windows.
        for (let x = -unit * 4; x < w; x += unit * (14 + random() * 10)) {
          const houseWidth = unit * (12 + random() * 10);
          const top = h * (0.3 + random() * 0.12);
          context.fillStyle = hue(30, 60, 35, 60);
          context.fillRect(x, top, houseWidth, h * 0.62 - top);
          context.fillStyle = hue(0, 30, 30, 30);
          context.beginPath();
          context.moveTo(x - unit, top);
          context.lineTo(x + houseWidth / 2, top - unit * (4 + random() * 5));
          context.lineTo(x + houseWidth + unit, top);
          context.fill();
          for (let wy = top + unit * 2; wy < h * 0.58 - unit * 3; wy += unit * 5) {
            for (let wx = x + unit * 1.5; wx < x + houseWidth - unit * 3; wx += unit * 4) {
              context.fillStyle = hue(210, 40, 25, 35);
              context.fillRect(wx, wy, unit * 2.2, unit * 3);
            }
          }
        }
        // Trees: leaves in many greens.
        for (let i = 0; i < 14; i++) {
          const cx = random() * w;
          const cy = h * (0.25 + random() * 0.35);
          for (let leaf = 0; leaf < 40; leaf++) {
            context.fillStyle = hue(105, 50, 45, 35);
            context.beginPath();
            context.arc(cx + (random() - 0.5) * unit * 14, cy + (random() - 0.5) * unit * 12, unit * (0.4 + random()), 0, Math.PI * 2);
            context.fill();
          }
        }
        // The street, its kerb, parked cars and bins.
        context.fillStyle = "#5d6066";
        context.fillRect(0, h * 0.62, w, h * 0.38);
        context.fillStyle = "#b9b4aa";
        context.fillRect(0, h * 0.62, w, unit * 2);
        for (let x = random() * unit * 10; x < w; x += unit * (18 + random() * 20)) {
          context.fillStyle = hue(0, 360, 55, 45);
          context.fillRect(x, h * 0.66, unit * 14, unit * 5);
          context.fillRect(x + unit * 3, h * 0.63, unit * 8, unit * 3.5);
          context.fillStyle = "#1b1b1b";
          context.beginPath();
          context.arc(x + unit * 3, h * 0.71, unit * 1.6, 0, Math.PI * 2);
          context.arc(x + unit * 11, h * 0.71, unit * 1.6, 0, Math.PI * 2);
          context.fill();
          context.fillStyle = hue(150, 30, 50, 30);
          context.fillRect(x + unit * 15, h * 0.6, unit * 2.5, unit * 4);
        }
        // A lens's softness.
        context.filter = `blur(${unit / 6}px)`;
        context.drawImage(canvas, 0, 0);
        context.filter = "none";
        return canvas.toDataURL("image/jpeg", 0.9).split(",")[1] ?? "";
      },
      [width, height] as const,
    );
    return Buffer.from(jpeg, "base64");
  } finally {
    await page.close();
  }
}
