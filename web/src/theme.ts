import {
  type CSSVariablesResolver,
  createTheme,
  defaultVariantColorsResolver,
  parseThemeColor,
  type VariantColorsResolver,
} from '@mantine/core';

/**
 * Text in the light and subtle variants (badges, the condition counts) in the colour's darkest
 * shade: shade 6 on its own light background is under WCAG AA's 4.5:1 (axe-core's
 * color-contrast rule, test/dashboard/a11y.test.ts).
 */
/** Text for the colours whose shade 9 is still too light on their shade 0 (orange: 3.95:1). */
const DARKER_TEXT: Readonly<Record<string, string>> = { orange: '#a63a0b', yellow: '#7a5200' };

/**
 * The light variant's colours of a theme colour (a badge's): its lightest shade behind its
 * darkest text. The graph's nodes draw their badges as plain elements in these.
 */
export function lightVariant(color: string): { background: string; color: string } {
  return {
    background: `var(--mantine-color-${color}-0)`,
    color: DARKER_TEXT[color] ?? `var(--mantine-color-${color}-9)`,
  };
}

const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  const parsed = parseThemeColor({
    color: input.color ?? input.theme.primaryColor,
    theme: input.theme,
  });
  if (input.variant === 'light' && parsed.isThemeColor) {
    // teal 9 on teal 1 is 4.32:1; on teal 0 it passes
    return {
      ...colors,
      ...lightVariant(parsed.color),
      hover: `var(--mantine-color-${parsed.color}-1)`,
    };
  }
  if (input.variant === 'subtle' && parsed.isThemeColor) {
    return { ...colors, color: `var(--mantine-color-${parsed.color}-9)` };
  }
  return colors;
};

/** The page's theme: filled buttons in shade 8 (white text at 4.5:1 or more). */
export const theme = createTheme({ primaryShade: 8, variantColorResolver });

/**
 * The page's own colours for both schemes (the scheme is kept in localStorage by Mantine).
 * Dimmed text one shade darker than Mantine's (gray 6 on white is 3.3:1), and the light
 * variant's text (badges read it from these variables) in each colour's darkest shade, on its
 * lightest.
 */
export const cssVariables: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--platctl-page-bg': 'var(--mantine-color-gray-0)',
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    ...Object.fromEntries(
      Object.keys(t.colors).map((c) => [
        `--mantine-color-${c}-light-color`,
        `var(--mantine-color-${c}-9)`,
      ]),
    ),
  },
  dark: { '--platctl-page-bg': 'var(--mantine-color-dark-8)' },
});
