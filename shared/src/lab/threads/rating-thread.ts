/** The thread of RatingFits: fits the rating problems it is sent, one at a time. */
import { solveRatings } from '../stats/rating-problem.js';
import { serveRequests } from './thread-client.js';

serveRequests(solveRatings);
