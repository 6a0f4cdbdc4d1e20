'use client';

import * as RadixTooltip from '@radix-ui/react-tooltip';
import type { ReactElement, ReactNode } from 'react';

/**
 * Shares the tooltips' timing across the page (root layout): once one has shown, moving to the next icon
 * shows its tooltip at once.
 */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <RadixTooltip.Provider delayDuration={400} skipDelayDuration={300}>
      {children}
    </RadixTooltip.Provider>
  );
}

type Props = {
  /** The hint shown. Not the control's accessible name: the control keeps its own aria-label. */
  label: string;
  /** One focusable element (an icon-only button or link) that takes a ref and its props. */
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
};

/**
 * A short hint beside an icon-only control, on Radix UI's Tooltip: shown on hover after a moment and on
 * keyboard focus, hidden by Escape, a click or leaving; kept inside the screen.
 */
export function Tooltip({ label, children, side = 'top' }: Props) {
  return (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content
          side={side}
          sideOffset={4}
          collisionPadding={8}
          className="z-50 max-w-xs rounded-md bg-zinc-900 px-2 py-1 text-xs text-white shadow-md dark:bg-zinc-100 dark:text-zinc-900"
        >
          {label}
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}
