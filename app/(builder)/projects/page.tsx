import { ProjectList } from '@/components/projects/project-list';

export const metadata = { title: 'Projects' };

export default function ProjectsPage() {
  return (
    <main className="mx-auto max-w-3xl space-y-6 p-6">
      <h1 className="text-2xl font-semibold">Projects</h1>
      <ProjectList />
    </main>
  );
}
