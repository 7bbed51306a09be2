/** Who the patient is booking with: the clinic's name, address and phone. */
export function ClinicHeader({ clinic }: { clinic: { name: string; address: string; phone: string } }) {
  return (
    <header className="booking-clinic">
      <p className="booking-clinic-name">{clinic.name}</p>
      {clinic.address && <p>{clinic.address}</p>}
      {clinic.phone && (
        <p>
          Phone: <a href={`tel:${clinic.phone.replace(/[^\d+]/g, '')}`}>{clinic.phone}</a>
        </p>
      )}
    </header>
  );
}
