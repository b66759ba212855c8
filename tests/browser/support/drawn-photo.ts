// A photo-like JPEG drawn by the browser itself (a dusk gradient, a street, two bins, grain),
// so a test has a real photo of any size without a file in the repository.
import type { Browser } from "@playwright/test";

export async function drawPhoto(browser: Browser, width: number, height: number): Promise<Buffer> {
  const page = await browser.newPage();
  try {
    const jpeg = await page.evaluate(
      ([w, h]) => {
        const canvas = document.createElement("canvas");
        canvas.width = w;
        canvas.height = h;
        const context = canvas.getContext("2d");
        if (!context) throw new Error("no 2D canvas");
        const sky = context.createLinearGradient(0, 0, 0, h);
        sky.addColorStop(0, "#1d3557");
        sky.addColorStop(0.6, "#f4a261");
        sky.addColorStop(0.61, "#555b6e");
        sky.addColorStop(1, "#8d99ae");
        context.fillStyle = sky;
        context.fillRect(0, 0, w, h);
        context.fillStyle = "#2a9d8f";
        context.fillRect(w * 0.54, h * 0.44, w * 0.11, h * 0.35);
        context.fillStyle = "#264653";
        context.fillRect(w * 0.69, h * 0.44, w * 0.11, h * 0.35);
        // Grain, as a camera's sensor leaves it: the copies then weigh what a photo's do.
        const pixels = context.getImageData(0, 0, w, h);
        let state = 0x9e3779b9;
        for (let i = 0; i < pixels.data.length; i += 4) {
          state ^= state << 13;
          state ^= state >>> 17;
          state ^= state << 5;
          const grain = ((state >>> 0) % 17) - 8;
          for (let c = 0; c < 3; c++) pixels.data[i + c] = Math.max(0, Math.min(255, (pixels.data[i + c] ?? 0) + grain));
        }
        context.putImageData(pixels, 0, 0);
        return canvas.toDataURL("image/jpeg", 0.9).split(",")[1] ?? "";
      },
      [width, height],
    );
    return Buffer.from(jpeg, "base64");
  } finally {
    await page.close();
  }
}
