import { useId } from 'react';
import { Link } from 'react-router-dom';

export interface HomeCard {
  title: string;
  to: string;
  description: string;
  /** A short symbol drawn in the card (decorative). */
  icon?: string;
}

/** The cards of a home screen; each card is one link named by its title, described by its text. */
export function HomeCards({ cards, label }: { cards: readonly HomeCard[]; label: string }) {
  const baseId = useId();
  return (
    <nav aria-label={label}>
      <ul className="cards">
        {cards.map((card, i) => (
          <li key={card.to}>
            <Link
              to={card.to}
              className="card"
              aria-labelledby={`${baseId}-${i}-title`}
              aria-describedby={`${baseId}-${i}-text`}
            >
              {card.icon && (
                <span className="card-icon" aria-hidden="true">
                  {card.icon}
                </span>
              )}
              <span className="card-title" id={`${baseId}-${i}-title`}>
                {card.title}
              </span>
              <span className="card-text" id={`${baseId}-${i}-text`}>
                {card.description}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
