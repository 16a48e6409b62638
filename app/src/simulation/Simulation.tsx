import { PageHeading } from "../ui/PageHeading";

export function Simulation() {
  return <PageHeading title="Simulation" />;
}
