import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { TRPCReactProvider } from '@/components/trpc/client';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Blockbot', template: '%s · Blockbot' },
  description: 'Open-source visual chatbot builder',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <TRPCReactProvider>{children}</TRPCReactProvider>
      </body>
    </html>
  );
}
