"""Sub requests: the open list, My Sub Requests, the new request forms and one request's page."""
