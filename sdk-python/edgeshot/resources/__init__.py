"""The client's resource groups: jobs, batches, watches, destinations, webhooks, crawls, monitors."""
